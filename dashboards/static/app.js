// Small conveniences only; every page works without scripts.
// Filters apply as soon as a select changes; a flagged round opens scrolled to the chosen flag.
document.querySelectorAll("form.filters select").forEach((el) => {
  el.addEventListener("change", () => el.form.requestSubmit());
});
const chosen = document.querySelector("article.flag.selected");
if (chosen && !location.hash) chosen.scrollIntoView({ block: "center" });
