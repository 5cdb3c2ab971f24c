from __future__ import annotations

import numpy as np
import pytest
import supervision as sv

from pipelines.games.layout import layout_for
from pipelines.sim import render as sim_render
from pipelines.sim.camera import Camera
from pipelines.sim.render import chip_positions, render
from pipelines.sim.scene import DENOMINATIONS, ChipStack, Occluder, PlacedCard, Scene
from pipelines.vision.chip_boxes import share_under
from pipelines.vision.chip_stacks import ChipSpread
from pipelines.vision.outlines import Outlines, polygon_gap_mm
from pipelines.vision.zones import ZoneMapper, apply_homography

GAMES = ("king-high", "high-tie", "3-card-monster", "pick-2-poker")


def _mapper(game: str, seed: int = 0) -> tuple[ZoneMapper, Camera]:
    layout = layout_for(game)
    cam = Camera.overhead(layout, np.random.default_rng(seed))
    return ZoneMapper(layout, cam.H), cam


def test_spread_defaults_match_the_renderer():
    sp = ChipSpread()
    assert sp.step_mm == pytest.approx(sim_render.SPREAD_FRACTION * 39.0)
    assert sp.per_row == sim_render.CHIPS_PER_ROW
    assert tuple(sp.axes[0]) == pytest.approx(sim_render.SPREAD_DIR)


@pytest.mark.parametrize("game", GAMES)
def test_random_stacks_land_in_their_zones(game):
    mapper, _ = _mapper(game)
    zones = [z for z in mapper.layout.zones if z.kind in ("bet", "paid", "tray")]
    rng = np.random.default_rng(7)
    right = total = 0
    for _ in range(80):
        pts, truth = [], []
        for j in rng.choice(len(zones), int(rng.integers(1, 6)), replace=False):
            z = zones[j]
            stack = ChipStack([int(d) for d in rng.choice(DENOMINATIONS, int(rng.integers(1, 13)))], *z.centre)
            for p in chip_positions(stack):
                pts.append(p)
                truth.append(z.name)
        got = {}
        for st in mapper.group_stacks(np.array(pts) + rng.normal(0, 1.5, (len(pts), 2))):
            got.update({i: st.zone for i in st.members})
        right += sum(got.get(i) == t for i, t in enumerate(truth))
        total += len(truth)
    assert right / total >= 0.97  # measured about 0.99 (benchmarks/detector_speed.py --stacks)


def test_a_payout_laid_just_past_the_wager_in_the_same_line_is_its_own_stack():
    # High Tie, seen in video: the $35 double wager and the $40 payout beside it lie in one line along the
    # spread, 1.47 steps apart; read as one run, the payout's first chips joined the wager's stack.
    mapper, _ = _mapper("high-tie")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    wager = [k * step for k in range(3)]
    payout = [wager[-1] + 1.47 * step + k * step for k in range(4)]
    origin = np.array(mapper.layout.zone("seat2.double").centre)
    pts = np.array([origin + a * u for a in wager + payout])
    stacks = sorted(mapper.group_stacks(pts), key=lambda st: min(st.members))
    assert [st.members for st in stacks] == [(0, 1, 2), (3, 4, 5, 6)]


def test_a_payout_row_a_little_off_its_wagers_line_is_its_own_stack():
    # King High, held-out video: a $20 wager (three chips seen, the fourth under the payout) and its $20
    # payout continuing the row one step on but 9.5 mm across; read as one run of five, two of the
    # payout's chips went to the wager.
    mapper, _ = _mapper("king-high")
    stacks = _row_then_row(mapper, "seat7.low", 3, 4, -9.5)
    assert [st.members for st in stacks] == [(0, 1, 2), (3, 4, 5, 6)]
    assert stacks[0].zone == "seat7.low"


def _row_then_row(mapper: ZoneMapper, zone: str, n_wager: int, n_payout: int, across_mm: float) -> list:
    """The stacks of a wager row of `n_wager` chips from 1.5 steps before `zone`'s centre and a payout row of
    `n_payout` continuing it one step on, `across_mm` across its line; ordered by their first chip."""
    u, v = mapper.spread.axes
    step = mapper.spread.step_mm
    origin = np.array(mapper.layout.zone(zone).centre) - 1.5 * step * u
    pts = [origin + k * step * u + (across_mm * v if k >= n_wager else 0) for k in range(n_wager + n_payout)]
    return sorted(mapper.group_stacks(np.array(pts)), key=lambda st: min(st.members))


def test_a_payout_continuing_its_wagers_row_on_a_straight_line_a_few_mm_across_is_its_own_stack():
    # Pick 2, held-out video: a $20 Ante (four $5) and its $20 payout continuing the row one step on, 6 mm across
    # (less than SIDESTEP_MM); cut into rows of five, the Ante lost its top chip to the payout in most frames.
    mapper, _ = _mapper("pick-2-poker")
    stacks = _row_then_row(mapper, "seat2.ante", 4, 4, 6.0)
    assert [st.members for st in stacks] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert stacks[0].zone == "seat2.ante"
    # One chip's box a few mm off a row's line is the detector's jitter, not a second line: the row stays whole.
    jittered = _row_then_row(mapper, "seat2.ante", 2, 1, 6.0)  # the third chip off: the row's top, alone after
    assert [st.members for st in jittered] == [(0, 1, 2)]
    u, v = mapper.spread.axes
    origin = np.array(mapper.layout.zone("seat2.ante").centre)
    inside = [origin + k * mapper.spread.step_mm * u + (6.0 * v if k == 2 else 0) for k in range(4)]
    assert [st.members for st in mapper.group_stacks(np.array(inside))] == [(0, 1, 2, 3)]


def test_a_chip_worth_more_than_the_one_before_it_in_a_row_starts_another_stack():
    # King High, held-out video: a $20 Suit wager (four $5, the last under the payout) and its $60 payout
    # ($25, $25, $5, $5) continuing the row on the same line; read as one run, the payout's $25s went to
    # the wager. Stacks are coloured up, largest at the bottom, and spread bottom first.
    mapper, _ = _mapper("king-high")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    # A quarter step off the places the two spots' stacks would take, so the spots do not part the run
    # (`test_a_wager_and_its_payout_in_one_run_part_where_each_centred_on_its_spot_ends`): the colours alone do.
    origin = np.array(mapper.layout.zone("seat6.suit_c").centre) - 1.25 * step * u
    pts = np.array([origin + k * step * u for k in range(7)])
    values = np.array([5, 5, 5, 25, 25, 5, 5])
    stacks = sorted(mapper.group_stacks(pts, values), key=lambda st: min(st.members))
    assert [st.members for st in stacks] == [(0, 1, 2), (3, 4, 5, 6)]
    assert stacks[0].zone == "seat6.suit_c"
    # Coloured up in order, the same seven chips are one run until the row is full.
    stacks = sorted(mapper.group_stacks(pts, np.sort(values)[::-1]), key=lambda st: min(st.members))
    assert stacks[0].members == (0, 1, 2, 3, 4)


def test_a_short_wager_with_a_full_payout_row_a_pitch_beyond_is_two_stacks():
    # King High, held-out video: a $15 suit wager (a row of three) and its $45 payout (a row of five) laid
    # one row pitch further along the perpendicular axis, centred alike; chained as one stack of eight,
    # both went to the wager's zone. A stack fills its first row before it starts a second.
    mapper, _ = _mapper("king-high")
    wager = ChipStack([5, 5, 5], *mapper.layout.zone("seat1.suit_c").centre)
    payout = ChipStack([25, 5, 5, 5, 5], *mapper.layout.zone("seat1.suit_c.paid").centre)
    pts = np.array(chip_positions(wager) + chip_positions(payout))
    stacks = sorted(mapper.group_stacks(pts), key=lambda st: min(st.members))
    assert [(st.members, st.zone) for st in stacks] == [((0, 1, 2), "seat1.suit_c"),
                                                        ((3, 4, 5, 6, 7), "seat1.suit_c.paid")]


def test_a_payout_overlapping_its_wager_a_little_over_a_pitch_across_is_two_stacks():
    # King High, held-out video: a $250 wager and its $250 payout, two rows of four centred within
    # 10 mm of each other and 50 mm apart across (a pitch is 41 mm); chained as one stack, both went to
    # the wager's spot and no payout was seen. A stack's rows lie a pitch apart within ~2 mm.
    mapper, _ = _mapper("king-high")
    u, v = mapper.spread.axes
    pitch = mapper.spread.row_pitch_mm
    wager = ChipStack([100, 100, 25, 25], *mapper.layout.zone("seat1.low").centre)
    base = np.array(chip_positions(wager))
    payout = base + (pitch + 9.4) * v - 9.7 * u
    stacks = sorted(mapper.group_stacks(np.vstack([base, payout])), key=lambda st: min(st.members))
    assert [st.members for st in stacks] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    # A real two-row stack, its second row read 2 mm off the pitch, stays one stack.
    nine = np.array(chip_positions(ChipStack([100] * 9, *mapper.layout.zone("seat1.low").centre)))
    nine[5:] += 2.0 * v
    assert len(mapper.group_stacks(nine)) == 1


@pytest.mark.parametrize("game, first, second", [("pick-2-poker", "seat2.ante.paid", "seat2.bonus5.paid"),
                                                   ("3-card-monster", "seat2.ante", "seat2.monster")])
def test_rows_of_two_spots_a_pitch_apart_across_are_each_their_spots_stack(game, first, second):
    # Pick 2, held-out video (set A57, 14564 461a81ca): the Ante payout spot lies 66 mm across from the 5 Card
    # Bonus payout's. A one-row $250 Ante payout lay a pitch and 4 mm from the first row of a two-row $90 Bonus
    # payout; chained as one stack of three rows centred on neither spot, it read $340 paid on the Bonus.
    mapper, _ = _mapper(game)
    _, v = mapper.spread.axes
    one_row = ChipStack([100, 100, 25, 25], *mapper.layout.zone(first).centre)
    two_rows = ChipStack([25, 25, 25, 5, 5, 5], *mapper.layout.zone(second).centre)
    pts = np.array(chip_positions(one_row) + chip_positions(two_rows))
    pts[4:] -= 3.5 * v  # the second's rows a pitch and 4 mm from the first's row, as read
    stacks = sorted(mapper.group_stacks(pts), key=lambda st: min(st.members))
    assert [(st.members, st.zone) for st in stacks] == [((0, 1, 2, 3), first), ((4, 5, 6, 7, 8, 9), second)]
    # A real three-row stack on one spot, its rows read 2 mm off the pitch, stays one stack on that spot.
    fifteen = np.array(chip_positions(ChipStack([25] * 15, *mapper.layout.zone(second).centre)))
    fifteen[5:10] += 2.0 * v
    assert [(len(st.members), st.zone) for st in mapper.group_stacks(fifteen)] == [(15, second)]


def test_a_stack_with_chips_inside_another_betting_spot_is_not_regular():
    # King High, held-out video: the Pokerpot's three $100 and the Seven's $25 and $5 lie in one line; a
    # box between them joined the two into one row, read as one stack in the Pokerpot and none in the Seven.
    mapper, _ = _mapper("king-high")
    a, b = (np.array(mapper.layout.zone(z).centre) for z in ("seat2.pokerpot", "seat2.seven"))
    merged = ChipStack([100, 100, 100, 25, 5], *((a + b) / 2))
    (st,) = mapper.group_stacks(np.array(chip_positions(merged)))
    assert st.zone in ("seat2.pokerpot", "seat2.seven") and not st.regular
    alone = ChipStack([100, 100, 100], *a)
    (st,) = mapper.group_stacks(np.array(chip_positions(alone)))
    assert st.zone == "seat2.pokerpot" and st.regular


def test_a_payout_over_the_edge_of_its_own_wagers_spot_is_regular_but_not_over_its_centre():
    # King High, held-out video: a $120 payout (five chips in a row) with its first chip 23 mm from the
    # centre of its own Suit spot, the wager gone; taken for a stack straddling two spots, it was doubted.
    mapper, _ = _mapper("king-high")
    u, _ = mapper.spread.axes
    spot = np.array(mapper.layout.zone("seat5.suit_d").centre)
    paid = np.array(mapper.layout.zone("seat5.suit_d.paid").centre)
    row = [paid + (k - 2) * mapper.spread.step_mm * u for k in range(5)]
    first = min(row, key=lambda p: float(np.linalg.norm(p - spot)))
    assert mapper.spot_core_mm < np.linalg.norm(first - spot) < 30.0
    (st,) = mapper.group_stacks(np.array(row))
    assert st.zone == "seat5.suit_d.paid" and st.regular
    # The same row one step nearer the spot has a chip near its centre: that chip is the wager's, read as
    # one row with its payout, so the stack is not to be trusted.
    nearer = np.array(row) - 0.9 * (first - spot)
    (st,) = mapper.group_stacks(nearer)
    assert not st.regular


def test_a_wager_chip_boxed_off_its_place_at_the_end_of_its_payouts_row_puts_the_payout_in_doubt():
    # King High, set A7 (seed 12581): a $2 Low of two $1 and its $3 payout of three $1 laid in one line. The wager's
    # top chip, boxed 9 mm off its place (17 mm from the spot's centre, outside `spot_core_mm`), joined the payout's
    # row, which then lay half a step off the payout's spot, and the payout was read $4 surely.
    mapper, _ = _mapper("king-high")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    spot = np.array(mapper.layout.zone("seat6.low").centre)
    paid = np.array(mapper.layout.zone("seat6.low.paid").centre)
    on = np.sign(float((paid - spot) @ u)) * u  # from the wager toward its payout, along the spread
    bottom, top = spot - 0.5 * step * on, spot + 0.5 * step * on
    payout = [paid + k * step * on for k in (-1, 0, 1)]

    def payout_stack(points):
        return next(st for st in mapper.group_stacks(np.array(points)) if st.zone == "seat6.low.paid")

    assert payout_stack([bottom, top, *payout]).reach_into == ()  # the wager's chips in their places: two stacks
    drawn_off = top + 9.0 * on
    assert mapper.spot_core_mm < np.linalg.norm(drawn_off - spot)
    st = payout_stack([bottom, drawn_off, *payout])
    assert len(st.members) == 4 and st.reach_into == ("seat6.low",) and not st.regular
    # A payout of five laid centred on its spot, its first chip inside the wager's spot (19 mm from its centre), the
    # wager gone, is the payout's own row.
    five = [paid + (k - 2) * step * on for k in range(5)]
    assert mapper._bet_zone_holding(np.array(five))[0][0] == "seat6.low"
    st = payout_stack(five)
    assert len(st.members) == 5 and st.reach_into == () and st.regular


def test_a_payout_row_ending_half_a_step_off_its_spot_in_line_with_another_spots_stack_is_in_doubt():
    # Pick 2, set A17 (seed 12974, frame 545): a $175 Play payout ($100 and three $25, an overpay) laid between its
    # wager and the seat's Ante, in one line with the first row of the stack on the Ante's spot. That stack's first
    # $25 joined the payout's row, half a step off the payout's spot, and $200 was read surely: a $50 overpay claimed.
    # The chips' places along and across the spread (mm), as the stored detections have them.
    mapper, _ = _mapper("pick-2-poker")
    along, across = mapper.spread.axes
    payout = [(566.6, 1459.9, 100), (582.3, 1460.3, 25), (597.4, 1460.9, 25), (613.4, 1460.6, 25)]
    beyond = [(627.1, 1460.5, 25), (643.9, 1460.6, 25), (660.2, 1460.8, 1), (678.0, 1463.9, 1), (636.9, 1503.0, 1),
              (655.3, 1502.7, 1)]

    def paid(chips: list[tuple[float, float, int]]):
        pts = np.array([u * along + v * across for u, v, _ in chips])
        stacks = mapper.group_stacks(pts, np.array([c for *_, c in chips], float))
        return next(st for st in stacks if st.zone == "seat3.play.paid")

    st = paid(payout + beyond)
    assert len(st.members) == 5 and st.reach_into == ("seat3.ante",) and not st.regular
    # a payout of five laid centred on its spot, the other stack a step past its end: its own row, no doubt
    step, centre = mapper.spread.step_mm, mapper._spot_uv["seat3.play.paid"][0]
    five = [(centre + (k - 2) * step, 1460.5, c) for k, c in enumerate([100, 25, 25, 25, 25])]
    st = paid(five + [(centre + (2 + 1.08 + k) * step, 1460.5, c) for k, c in enumerate([25, 1, 1])])
    assert len(st.members) == 5 and st.reach_into == () and st.regular


def test_a_payout_reaching_into_an_empty_spot_is_in_doubt_for_that_alone(oracle):
    # King High, held-out video (set 9501): $100 + 4 x $5 laid beside its Suit wager, the last $5 inside the
    # next Suit spot. The zone is in doubt, and says that the reach is its only doubt, so the round can weigh it.
    mapper, cam = _mapper("king-high")
    paid = mapper.layout.zone("seat5.suit_c.paid")
    stack = ChipStack([100, 5, 5, 5, 5], *paid.centre)
    assert mapper._bet_zone_holding(np.array(chip_positions(stack)))[0][-1] == "seat5.suit_d"
    seen = mapper.observe(_detections_of(mapper, cam, stack, oracle, {}))[paid.name]
    assert seen.chip_total == 120 and seen.chips_uncertain and seen.chips_reach_only
    assert seen.chips_reach_into == {"seat5.suit_d"}  # which spot, so the round can see whether it held a stack
    unsure_100 = mapper.observe(_detections_of(mapper, cam, stack, oracle, {0: 0.4}))[paid.name]  # the $100
    assert unsure_100.chips_uncertain and unsure_100.chips_doubt_other and not unsure_100.chips_reach_only
    (st,) = mapper.group_stacks(np.array(chip_positions(stack)))
    assert st.reaches and st.reach_into == ("seat5.suit_d",) and st.rows_regular and not st.regular
    inside = ChipStack([100, 5, 5], *paid.centre)  # three chips stay clear of the next spot: no doubt
    clear = mapper.observe(_detections_of(mapper, cam, inside, oracle, {}))[paid.name]
    assert not clear.chips_uncertain and clear.chips_reach_into == set()


def test_a_row_with_a_chip_more_than_its_length_holds_is_irregular():
    # King High, seen in video: five confident boxes on a spread of four chips (a box between two of them).
    mapper, _ = _mapper("king-high")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    origin = np.array(mapper.layout.zone("seat1.high").centre) - 1.5 * step * u  # four chips about the centre
    four = [origin + k * step * u for k in range(4)]
    (clean,) = mapper.group_stacks(np.array(four))
    assert clean.regular and len(clean.members) == 4
    (doubled,) = mapper.group_stacks(np.array([*four, origin + 1.5 * step * u]))
    assert not doubled.regular and len(doubled.members) == 5


def test_a_row_of_boxes_too_short_for_their_count_by_two_thirds_of_a_step_is_irregular():
    # 3 Card Monster, video (set QQ, seed 11943): a $400 Royal read $500 surely, five $100 boxes over 3.2 steps (the
    # rows of the four it held span 3); the round claimed a $500 Royal.
    mapper, _ = _mapper("3-card-monster")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    centre = np.array(mapper.layout.zone("seat4.royal").centre)

    def row(count: int, span_steps: float) -> np.ndarray:
        return np.array([centre + (k * span_steps / (count - 1) - span_steps / 2) * step * u for k in range(count)])

    (five,) = mapper.group_stacks(row(5, 3.3), np.full(5, 100.0))
    assert len(five.members) == 5 and not five.rows_regular
    # half a step short: a box too many in 138 row-frames of 146 over the sets A46-A51
    (three,) = mapper.group_stacks(row(3, 1.5), np.full(3, 100.0))
    assert len(three.members) == 3 and not three.rows_regular
    # 0.4 of a step short, as right rows often are: regular
    (four,) = mapper.group_stacks(row(4, 2.6), np.full(4, 100.0))
    assert len(four.members) == 4 and four.rows_regular


def test_a_big_payout_spilling_over_neighbours_stays_one_stack():
    mapper, _ = _mapper("high-tie")
    z = mapper.layout.zone("seat3.main.paid")
    stack = ChipStack([5] * 30, *z.centre)
    stacks = mapper.group_stacks(np.array(chip_positions(stack)))
    assert len(stacks) == 1 and stacks[0].zone == "seat3.main.paid" and len(stacks[0].members) == 30


@pytest.mark.parametrize("game", GAMES)
def test_observe_on_rendered_labels_matches_the_scene(game, oracle):
    layout = layout_for(game)
    rng = np.random.default_rng(3)
    cam = Camera.overhead(layout, rng)
    mapper = ZoneMapper(layout, cam.H, frame_size=cam.size)
    card_zone = layout.zones_of("cards")[0] if layout.zones_of("cards") else layout.zones_of("card_box")[0]
    bet = layout.zones_of("bet")[1]
    scene = Scene(cards=[PlacedCard("Qs", *card_zone.centre), PlacedCard("2d", card_zone.centre[0] + 40,
                                                                        card_zone.centre[1], face_up=False)],
                  chips=[ChipStack([25, 5, 5, 1], *bet.centre)])
    perfect = mapper.observe_scene(scene)
    assert perfect[bet.name].chip_total == 36
    assert [(c.card, c.face_up) for c in perfect[card_zone.name].cards] == [("Qs", True), (None, False)]
    _, labels = render(layout, scene, cam, rng, effects=False)
    seen = mapper.observe(oracle(labels))
    assert seen[bet.name].chip_total == 36
    assert [(c.card, c.face_up, c.back) for c in seen[card_zone.name].cards] == [("Qs", True, None),
                                                                                 (None, False, "red")]


def test_observe_scene_leaves_out_what_the_hand_hides():
    mapper, _ = _mapper("pick-2-poker")
    bet = mapper.layout.zones_of("bet")[0]
    scene = Scene(chips=[ChipStack([5], *bet.centre)])
    assert mapper.observe_scene(scene)[bet.name].chips == [5]
    scene.occluders.append(Occluder(*bet.centre, rx=80, ry=100))
    assert bet.name not in mapper.observe_scene(scene)
    assert bet.name in mapper.occluded_zones(scene)


def test_nested_card_areas_report_a_card_in_each():
    mapper, _ = _mapper("high-tie")
    inner = mapper.layout.zone("seat2.cards.1")
    assert set(mapper.card_zones(np.array([inner.centre]))[0]) == {"seat2.cards", "seat2.cards.1"}
    assert mapper.card_zones(np.array([[-500.0, -500.0]])) == [[]]


def test_share_under_counts_overlapping_cover_once():
    box = np.array([[0, 0, 10, 10]])
    assert share_under(box, np.zeros((0, 4))) == 0
    assert share_under(box, np.array([[0, 0, 5, 10], [0, 0, 5, 10]])) == pytest.approx(0.5)
    assert share_under(box, np.array([[0, 0, 5, 10], [5, 0, 20, 5], [-3, -3, 30, 2]])) == pytest.approx(0.75)
    assert share_under(box, np.array([[20, 20, 30, 30]])) == 0


def test_a_card_face_read_through_chips_lying_on_it_is_unsure(oracle):
    # Pick 2, held-out video: a 7h turned up under its play wager's chips was read as 8h at 0.9+ in every
    # frame (a chip taken for pips); half under chip boxes, a reading is not to be trusted.
    mapper, cam = _mapper("pick-2-poker")
    zone = mapper.layout.zone("seat2.cards")
    x, y = zone.centre
    for n, unsure in ((3, False), (5, True)):  # three chips cover under half of its box, five over half
        scene = Scene(cards=[PlacedCard("7h", x, y)], chips=[ChipStack([5] * n, x, y)])
        _, labels = render(mapper.layout, scene, cam, np.random.default_rng(0), effects=False)
        (card,) = mapper.observe(oracle(labels))[zone.name].cards
        assert (card.card, card.uncertain) == ("7h", unsure)


def test_a_card_reading_carries_the_detectors_confidence_in_its_box(oracle):
    # the classifier may be sure of a card a hand half covers while the detector doubts its box (a High Tie 2c read 3c
    # at 0.9997, the box at 0.83): the tracker weighs both (`card_track.CERTAIN_BOX_CONF`)
    mapper, cam = _mapper("high-tie")
    x, y = mapper.layout.zone("dealer.cards").centre
    _, labels = render(mapper.layout, Scene(cards=[PlacedCard("2c", x, y)]), cam, np.random.default_rng(0),
                       effects=False)
    det = oracle(labels)
    det.confidence[:] = 0.83
    det.data["card_confidence"] = np.full(len(det), 0.9997, np.float32)
    (card,) = mapper.observe(det)["dealer.cards"].cards
    assert card.card == "2c" and card.confidence == pytest.approx(0.9997) and card.box_confidence == pytest.approx(0.83)


def test_a_singular_homography_is_refused():
    with pytest.raises(ValueError, match="invertible"):
        ZoneMapper(layout_for("king-high"), np.zeros((3, 3)))


def test_a_stack_partly_under_another_stack_is_uncertain_not_under_the_hand():
    mapper, _ = _mapper("king-high")
    first = ChipStack([100, 100, 25], 404.9, 361.7)  # a payout, then a neighbour's payout spread over it
    later = ChipStack([25, 25, 25, 5, 5, 5], 451.3, 343.0)
    za, zb = mapper.stack_zone(np.array([[first.x, first.y], [later.x, later.y]]))
    assert za != zb
    obs = mapper.observe_scene(Scene(chips=[first, later]))
    assert obs[za].uncertain and obs[za].chip_total < 225
    assert not obs[zb].uncertain
    alone = mapper.observe_scene(Scene(chips=[first]))
    assert alone[za].chip_total == 225 and not alone[za].uncertain
    x, y = chip_positions(first)[-1]
    hand = mapper.observe_scene(Scene(chips=[first], occluders=[Occluder(x, y, rx=20, ry=20)]))
    assert hand[za].chip_total == 200 and not hand[za].uncertain  # the hand moves on: not a doubt


def test_a_wager_partly_under_another_stack_has_room_for_a_chip_unseen():
    # King High, perfect observation, seed 11601 (48f4b8cc): seat 2's $40 Low, its $5 chip 0.81 under the $20 Suit
    # placed against it a frame later, read $35; as `observe` has it, a chip of it may lie under that stack's chip
    # (`chips_under_room`), so the tracker carries the $40 read as it was laid (`ZoneState.read_more`).
    mapper, _ = _mapper("king-high")
    low, suit = ChipStack([25, 5, 5, 5], 531.7, 534.8), ChipStack([5, 5, 5, 5], 569.2, 501.8)
    zl, zs = mapper.stack_zone(np.array([[low.x, low.y], [suit.x, suit.y]]))
    obs = mapper.observe_scene(Scene(chips=[low, suit]))
    assert obs[zl].chip_total == 35 and obs[zl].chips_under_room and not obs[zl].uncertain
    assert not obs[zs].chips_under_room
    alone = mapper.observe_scene(Scene(chips=[low]))
    assert alone[zl].chip_total == 40 and not alone[zl].chips_under_room


def test_a_spot_another_stack_reaches_into_is_in_doubt_as_that_stack_is(oracle):
    # King High, held-out video (set 14311): a $20 Seven of four $5 chips laid in line with the $20 Pokerpot beside
    # it. The Pokerpot's stack read as five chips reaching into the Seven, the Seven as two, surely: $10, not $20.
    # Here a perfect detector: the Seven laid 4 mm towards the Pokerpot hides one of its chips and takes another.
    mapper, cam = _mapper("king-high")
    pot, seven = mapper.layout.zone("seat2.pokerpot"), mapper.layout.zone("seat2.seven")
    apart = np.subtract(pot.centre, seven.centre)
    towards = apart / np.hypot(*apart)
    stacks = [ChipStack([5] * 4, *pot.centre), ChipStack([5] * 4, *np.add(seven.centre, 4 * towards))]

    def seen(scene: list[ChipStack]):
        _, labels = render(mapper.layout, Scene(chips=scene), cam, np.random.default_rng(0), effects=False)
        return mapper.observe(oracle(labels))

    both = seen(stacks)
    assert both["seat2.seven"].chips_reach_into == {"seat2.pokerpot"}
    short = both["seat2.pokerpot"]
    assert short.chip_total == 15  # read short, and so in doubt: for the stack reaching into it, that alone
    assert short.chips_uncertain and short.chips_reach_only and short.chips_reach_into == {"seat2.seven"}
    pot_alone, seven_alone = (seen([stack]) for stack in stacks)  # each alone on the table, read whole
    assert pot_alone["seat2.pokerpot"].chip_total == 20 and not pot_alone["seat2.pokerpot"].chips_uncertain
    assert seven_alone["seat2.seven"].chip_total == 20 and seven_alone["seat2.seven"].chips_reach_into == {pot.name}


def _detections_of(mapper: ZoneMapper, cam: Camera, stack: ChipStack, oracle, unsure: dict[int, float],
                   extra_mm: tuple[float, float] | None = None, extra_value: int = 1):
    """A perfect detector's boxes for one stack, with the chips in `unsure` (index -> confidence) read
    below the detector's confidence, and optionally one more unsure box centred at `extra_mm`."""
    _, labels = render(mapper.layout, Scene(chips=[stack]), cam, np.random.default_rng(0), effects=False)
    det = oracle(labels)
    chips = np.flatnonzero(det.data["chip_value"] > 0)
    for k, conf in unsure.items():
        det.confidence[chips[k]] = conf
        det.data["uncertain"][chips[k]] = True
    if extra_mm is not None:
        box = det.xyxy[chips[0]]
        half = (box[2:] - box[:2]) / 2
        c = apply_homography(cam.H, np.array([extra_mm]))[0]
        ghost = sv.Detections(xyxy=np.array([[*(c - half), *(c + half)]], np.float32),
                              confidence=np.array([0.4], np.float32),
                              data={"class_name": np.array([f"chip_{extra_value}"], object),
                                    "card": np.array([""], object), "chip_value": np.array([extra_value], np.int32),
                                    "card_confidence": np.array([0.4], np.float32), "uncertain": np.array([True])})
        det = sv.Detections.merge([det, ghost])
    return det


def test_an_unsure_chip_inside_a_row_between_sure_chips_of_its_kind_is_sure(oracle):
    # High Tie, held-out video: four $100 in a row, the second read at 0.4 in every frame; the row's ends
    # and its length say a chip lies there, and a stack coloured up in order says which.
    mapper, cam = _mapper("high-tie")
    z = mapper.layout.zone("seat5.side")
    seen = mapper.observe(_detections_of(mapper, cam, ChipStack([100] * 4, *z.centre), oracle, {1: 0.4}))
    assert seen[z.name].chip_total == 400 and not seen[z.name].chips_uncertain
    ends = mapper.observe(_detections_of(mapper, cam, ChipStack([100] * 4, *z.centre), oracle, {3: 0.4}))
    assert ends[z.name].chips_uncertain  # the row's last chip: nothing vouches for it
    mixed = mapper.observe(_detections_of(mapper, cam, ChipStack([100, 25, 5, 5], *z.centre), oracle, {1: 0.4}))
    assert mixed[z.name].chips_uncertain  # between a $100 and a $5: its denomination is a guess


def test_a_wager_row_half_a_step_off_its_spot_is_in_doubt(oracle):
    # 3 Card Monster, held-out video (set A51, seed 14323): a $300 Monster of three $100 in line with the $300 Ante;
    # the detector drew a fourth $100 box a step past the Monster's top chip at 0.68-0.86 in every frame, and the
    # Monster read $400 surely. A wager is laid centred on its spot: a row half a step off it is a box too many.
    mapper, cam = _mapper("3-card-monster")
    z = mapper.layout.zone("seat6.monster")
    stack = ChipStack([100] * 3, *z.centre)
    top, below = (np.array(p) for p in chip_positions(stack)[-1:-3:-1])
    det = _detections_of(mapper, cam, stack, oracle, {}, extra_mm=tuple(2 * top - below), extra_value=100)
    det.confidence[-1], det.data["uncertain"][-1] = 0.75, False  # read above the detector's confidence
    phantom = mapper.observe(det)[z.name]
    assert phantom.chip_total == 400 and phantom.chips_uncertain and phantom.chips_doubt_other
    centred = mapper.observe(_detections_of(mapper, cam, ChipStack([100] * 4, *z.centre), oracle, {}))[z.name]
    assert centred.chip_total == 400 and not centred.chips_uncertain  # the same four chips laid on the spot


def test_a_wager_row_with_a_box_past_its_end_is_marked_short_whether_that_box_is_seen_surely_or_not(oracle):
    # King High, held-out video (set A66, seed 14921, round 206832c4): a $10 Low of two $5, a $25 box drawn on the felt
    # a step past its bottom chip at 0.89-0.93, read $35 off its spot in every frame that confirmed it; in one of
    # them the box was seen below `OFF_CENTRE_END_SEEN` (a doubt), in the rest above it. Every such frame is marked
    # short, so the tracker weighs the confirmation as one lone row off its spot throughout.
    from pipelines.vision.track import ZoneTracker

    mapper, cam = _mapper("king-high")
    z = mapper.layout.zone("seat4.low")
    stack = ChipStack([5, 5], *z.centre)
    bottom, above = (np.array(p) for p in chip_positions(stack)[:2])

    def frame(conf: float) -> sv.Detections:
        det = _detections_of(mapper, cam, stack, oracle, {}, extra_mm=tuple(2 * bottom - above), extra_value=25)
        det.confidence[-1], det.data["uncertain"][-1] = conf, False
        return det

    sure, doubted = mapper.observe(frame(0.93))[z.name], mapper.observe(frame(0.85))[z.name]
    assert sure.chip_total == doubted.chip_total == 35
    assert sure.chips_short_row and not sure.chips_uncertain
    assert doubted.chips_short_row and doubted.chips_uncertain
    tracker = ZoneTracker(stable_frames=3)
    confs = (0.93, 0.93, 0.85, 0.93, 0.93, 0.93)
    changes = [c for i, conf in enumerate(confs) for c in tracker.update(i, mapper.observe(frame(conf)))
               if c.zone == z.name]
    assert [(c.after.chip_total, c.after.uncertain) for c in changes] == [(35, True)]


def test_a_lone_unsure_box_off_the_rows_of_a_sure_stack_is_no_chip(oracle):
    # Pick 2, held-out video: the red print on a card back beside the ante read as a $1 chip at 0.3-0.5,
    # half a row pitch across the ante's row: no chip of the spot's stack can lie there.
    mapper, cam = _mapper("pick-2-poker")
    z = mapper.layout.zone("seat2.ante")
    stack = ChipStack([5, 5, 5], *z.centre)
    v = mapper.spread.axes[1]
    end = np.array(chip_positions(stack)[-1])
    off_row = end + 0.5 * mapper.spread.row_pitch_mm * v
    seen = mapper.observe(_detections_of(mapper, cam, stack, oracle, {}, tuple(off_row)))
    assert seen[z.name].chips == [5, 5, 5] and not seen[z.name].chips_uncertain
    sure = _detections_of(mapper, cam, stack, oracle, {}, tuple(off_row))
    sure.confidence[-1], sure.data["uncertain"][-1] = 0.9, False  # read confidently, it is not ours to drop
    assert sorted(mapper.observe(sure)[z.name].chips) == [1, 5, 5, 5]


def test_an_unsure_box_that_alone_makes_its_row_too_long_is_no_chip(oracle):
    # King High, held-out video: a box read at 0.4 between two chips of a spread row; without it the row is
    # as long as its chips say, so it is the detector reading their overlap as a chip.
    mapper, cam = _mapper("king-high")
    z = mapper.layout.zone("seat2.seven")
    stack = ChipStack([5, 5, 5], *z.centre)
    a, b = (np.array(p) for p in chip_positions(stack)[:2])
    seen = mapper.observe(_detections_of(mapper, cam, stack, oracle, {}, tuple((a + b) / 2), extra_value=5))
    assert seen[z.name].chips == [5, 5, 5] and not seen[z.name].chips_uncertain
    sure = _detections_of(mapper, cam, stack, oracle, {}, tuple((a + b) / 2), extra_value=5)
    sure.confidence[-1], sure.data["uncertain"][-1] = 0.9, False  # read confidently, it is not ours to drop
    assert mapper.observe(sure)[z.name].chips_uncertain
    # Two unsure boxes, the middle chip and the box beside it: without the chip, the box and the bottom chip make a
    # row of two half a step long, short by half a step (`IRREGULAR_STEPS`), so only the box is a misfit.
    both = _detections_of(mapper, cam, stack, oracle, {1: 0.4}, tuple((a + b) / 2), extra_value=5)
    assert mapper.observe(both)[z.name].chips == [5, 5, 5]


def test_an_unsure_box_that_alone_splits_a_spot_into_two_stacks_is_no_chip(oracle):
    # A $2 seven (two $1) with a box read as $100 at 0.4 between them. A row never holds a chip worth more than
    # the one before it, so the box starts a second stack in the one spot; without it the spot holds one
    # regular stack.
    mapper, cam = _mapper("king-high")
    z = mapper.layout.zone("seat2.seven")
    stack = ChipStack([1, 1], *z.centre)
    a, b = (np.array(p) for p in chip_positions(stack))
    seen = mapper.observe(_detections_of(mapper, cam, stack, oracle, {}, tuple((a + b) / 2), extra_value=100))
    assert seen[z.name].chips == [1, 1] and not seen[z.name].chips_uncertain
    sure = _detections_of(mapper, cam, stack, oracle, {}, tuple((a + b) / 2), extra_value=100)
    sure.confidence[-1], sure.data["uncertain"][-1] = 0.9, False
    assert sorted(mapper.observe(sure)[z.name].chips) == [1, 1, 100]


def _wager_gap_payout(mapper: ZoneMapper, cam: Camera, oracle, none: float | None, ghost_at: str = "gap",
                      sure: bool = False, across_mm: float = 0.0, payout_chips: tuple[int, ...] = (5, 5)):
    """3 Card Monster seat 2: a $35 Ante and its $10 payout (`payout_chips`) laid in its line (or `across_mm` across
    it), a chip's gap past the wager's top chip, with a box read as $5 at 0.4 (0.7 when `sure`) in the gap, half way
    across (or just past the payout's top: `ghost_at="end"`) that the verifier leans `none` on at `none` (None: it
    did not look)."""
    z = mapper.layout.zone("seat2.ante")
    (u, v), step = mapper.spread.axes, mapper.spread.step_mm
    wager = ChipStack([25, 5, 5], *z.centre)
    top = np.array(chip_positions(wager)[-1])
    payout = ChipStack(list(payout_chips), *(top + (1 + (len(payout_chips) + 1) / 2) * step * u + across_mm * v))
    at = top + step * u + across_mm / 2 * v if ghost_at == "gap" else np.array(chip_positions(payout)[-1]) + step * u
    _, labels = render(mapper.layout, Scene(chips=[wager, payout]), cam, np.random.default_rng(0), effects=False)
    det = oracle(labels)
    box = det.xyxy[0]
    half = (box[2:] - box[:2]) / 2
    c = apply_homography(cam.H, np.array([at]))[0]
    ghost = sv.Detections(xyxy=np.array([[*(c - half), *(c + half)]], np.float32),
                          confidence=np.array([0.7 if sure else 0.4], np.float32),
                          data={"class_name": np.array(["chip_5"], object), "card": np.array([""], object),
                                "chip_value": np.array([5], np.int32), "card_confidence": np.zeros(1, np.float32),
                                "uncertain": np.array([not sure])})
    det = sv.Detections.merge([det, ghost])
    det.data["chip_none"] = np.r_[np.full(len(det) - 1, np.nan), np.nan if none is None else none].astype(np.float32)
    return mapper.observe(det)


def test_an_unsure_box_inside_a_row_the_verifier_leans_none_on_is_no_chip(oracle):
    # 3 Card Monster, held-out video: a payout laid a chip's gap past its wager's top chip, the detector drawing a
    # box in the gap. Between two sure $5s the box is vouched for, and wager and payout read as one row: the
    # payout's first chip counted with the wager (a $35 Ante read $45, its $10 payout $5), and nothing in doubt.
    mapper, cam = _mapper("3-card-monster")
    for none in (None, 0.5):  # the verifier did not look, or leans `none` too little to say
        joined = _wager_gap_payout(mapper, cam, oracle, none)
        assert joined["seat2.ante"].chips == [25, 5, 5, 5, 5] and not joined["seat2.ante"].chips_uncertain
    split = _wager_gap_payout(mapper, cam, oracle, 0.9)
    assert split["seat2.ante"].chips == [25, 5, 5] and split["seat2.ante.paid"].chips == [5, 5]
    assert not split["seat2.ante"].chips_uncertain and not split["seat2.ante.paid"].chips_uncertain
    # Read confidently, the box is not ours to drop; at a row's end the verifier's `none` is no proof (a real payout
    # chip laid over its wager's top chip drew 0.83-0.92): the box stays, and so does the doubt.
    assert _wager_gap_payout(mapper, cam, oracle, 0.9, sure=True)["seat2.ante"].chip_total == 45
    end = _wager_gap_payout(mapper, cam, oracle, 0.9, ghost_at="end")
    assert end["seat2.ante.paid"].chip_total == 15 and end["seat2.ante.paid"].chips_uncertain


def test_a_box_bridging_a_wager_and_a_payout_laid_off_its_line_is_no_chip_when_the_verifier_leans_none(oracle):
    # 3 Card Monster, held-out video: a $15 Ante and its $15 payout laid a chip's gap past it, 6 mm across its line;
    # the detector drew a box in the gap, half way across, at 0.68-0.70 (sure), the verifier leaning `none` on it at
    # 0.75-0.85. Joining wager and payout, it read the Ante $25 and the payout $10.
    mapper, cam = _mapper("3-card-monster")
    split = _wager_gap_payout(mapper, cam, oracle, 0.45, sure=True, across_mm=6.0)
    assert split["seat2.ante"].chips == [25, 5, 5] and split["seat2.ante.paid"].chips == [5, 5]
    # The verifier taking it for a chip (real chips there drew `none` 0.26 at most), or a box on the wager's own
    # line: not ours to drop.
    assert _wager_gap_payout(mapper, cam, oracle, 0.2, sure=True, across_mm=6.0)["seat2.ante"].chip_total == 45
    assert _wager_gap_payout(mapper, cam, oracle, 0.45, sure=True)["seat2.ante"].chip_total == 45
    # King High, held-out video: a lone chip of the next spot on the far side (a $250 High and a $5 Suit beyond it).
    lone = _wager_gap_payout(mapper, cam, oracle, 0.53, across_mm=5.0, payout_chips=(5,))
    assert lone["seat2.ante"].chips == [25, 5, 5] and not lone["seat2.ante"].chips_uncertain


def test_a_spot_read_as_two_stacks_on_one_line_a_chip_apart_is_in_doubt_and_counts_a_chip_its_neighbours_name(
        oracle):
    # 3 Card Monster, held-out video: a 4 x $100 Monster wager, black chips on dark felt, its second chip missed in
    # every frame: read as a $100 and a $200 stack a chip's gap apart, sure of both, $300 in all.
    mapper, cam = _mapper("3-card-monster")
    z = mapper.layout.zone("seat4.monster")
    _, labels = render(mapper.layout, Scene(chips=[ChipStack([100] * 4, *z.centre)]), cam, np.random.default_rng(0),
                       effects=False)
    det = oracle(labels)
    assert mapper.observe(det)[z.name].chip_total == 400 and not mapper.observe(det)[z.name].chips_uncertain
    chips = np.flatnonzero(det.data["chip_value"] > 0)
    missed = mapper.observe(det[np.arange(len(det)) != chips[1]])[z.name]
    # The chip between two $100s of one stack, coloured up, is a $100 too: counted, and still in doubt.
    assert missed.chip_total == 400 and missed.chips_uncertain
    assert missed.chips_gap_only  # its one doubt, for the tracker to weigh against confident readings without it
    assert not mapper.observe(det)[z.name].chips_gap_only
    # Between chips of two denominations its worth is unknown: the total is what was seen, in doubt.
    mixed = ChipStack([500, 100, 100, 25], *z.centre)
    _, labels = render(mapper.layout, Scene(chips=[mixed]), cam, np.random.default_rng(0), effects=False)
    det = oracle(labels)
    chips = np.flatnonzero(det.data["chip_value"] > 0)
    second = chips[np.argsort(det.data["chip_value"][chips])][1]  # a $100, between the $500 and the other $100
    seen = mapper.observe(det[np.arange(len(det)) != second])[z.name]
    assert seen.chip_total == 625 and seen.chips_uncertain and seen.chips_gap_only
    # a chip below the detector's confidence besides: more than the gap in doubt
    low = np.array(det.data.get("uncertain", np.zeros(len(det), bool)), dtype=bool)
    low[chips[np.argsort(det.data["chip_value"][chips])][0]] = True  # the $25
    det.data["uncertain"] = low
    doubted = mapper.observe(det[np.arange(len(det)) != second])[z.name]
    assert doubted.chips_uncertain and not doubted.chips_gap_only


def test_outline_distances_match_each_polygon_measured_alone():
    """All zones' outlines in one array give, per zone, the distance measured against that zone alone."""
    rng = np.random.default_rng(5)
    polygons = [rng.uniform(-200, 200, 2) + rng.uniform(5, 60, (k, 2)) for k in (3, 4, 7, 4)]
    points = rng.uniform(-300, 300, (25, 2))

    def alone(p: np.ndarray, poly: np.ndarray) -> float:  # nearest point of each edge, one edge at a time
        best = np.inf
        for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
            t = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0, 1)
            best = min(best, float(np.hypot(*(p - (a + t * (b - a))))))
        return best

    got = Outlines.of(polygons).distances(points)
    assert got.shape == (25, 4)
    want = np.array([[alone(p, poly) for poly in polygons] for p in points])
    np.testing.assert_allclose(got, want, atol=1e-9)
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert polygon_gap_mm(square, [(x + 25.0, y) for x, y in square]) == pytest.approx(15.0)
    assert polygon_gap_mm(square, [(x + 5.0, y + 5.0) for x, y in square]) == 0.0  # overlapping


def test_a_lone_chip_just_past_another_spots_row_leaves_both_spots_in_doubt(oracle):
    # King High, held-out video: a 4 × $100 seven whose top chip's box lay 10 mm past its place; 1.6 steps
    # from the row the row breaks, and the chip landed in the high spot beside it, read as $300 and $100, both
    # sure. Which spot holds it is a guess, so both are read with doubt.
    mapper, cam = _mapper("king-high")
    seven, high = mapper.layout.zone("seat3.seven"), mapper.layout.zone("seat3.high")
    stack = ChipStack([100, 100, 100], *seven.centre)
    u, step = mapper.spread.axes[0], mapper.spread.step_mm
    top = np.array(chip_positions(stack)[-1])

    def seen_with_chip_at(steps: float):
        det = _detections_of(mapper, cam, stack, oracle, {}, tuple(top + steps * step * u), extra_value=100)
        det.confidence[-1], det.data["uncertain"][-1] = 0.95, False  # the detector is sure of every box
        return mapper.observe(det)

    adrift = seen_with_chip_at(1.6)
    assert adrift[seven.name].chips == [100] * 3 and adrift[high.name].chips == [100]
    assert adrift[seven.name].chips_uncertain and adrift[high.name].chips_uncertain
    apart = seen_with_chip_at(2.3)  # a wager of its own in the high spot, clear of the row
    assert apart[high.name].chips == [100] and not apart[high.name].chips_uncertain
    assert not apart[seven.name].chips_uncertain
    dearer = _detections_of(mapper, cam, stack, oracle, {}, tuple(top + 1.6 * step * u), extra_value=500)
    dearer.confidence[-1], dearer.data["uncertain"][-1] = 0.95, False
    # Worth more than the row's top chip, it cannot have been part of it (stacks are coloured up).
    assert not mapper.observe(dearer)[high.name].chips_uncertain


def test_an_unsure_box_at_a_rows_end_the_verifier_calls_none_frame_after_frame_is_no_chip(oracle):
    # King High, held-out video: a $25 box one step past a row's end, read below the detector's confidence, that
    # the verifier called `none` at 0.80-0.98 in every frame (its acceptance, 0.97, reached in a few). One frame's
    # `none` there is no proof (real chips at a row's ends drew up to 0.96), five in a row are.
    mapper, cam = _mapper("3-card-monster")
    reads = [_wager_gap_payout(mapper, cam, oracle, none, ghost_at="end") for none in (0.9, 0.85, 0.95, 0.82, 0.93)]
    assert [r["seat2.ante.paid"].chip_total for r in reads] == [15, 15, 15, 15, 10]
    assert reads[0]["seat2.ante.paid"].chips_uncertain and not reads[-1]["seat2.ante.paid"].chips_uncertain
    # A frame in which the verifier reads it as a chip ends the run: five high readings are needed again.
    mapper, cam = _mapper("3-card-monster")
    nones = (0.9, 0.85, 0.2, 0.88, 0.9, 0.92, 0.86, 0.91)
    reads = [_wager_gap_payout(mapper, cam, oracle, none, ghost_at="end") for none in nones]
    assert [r["seat2.ante.paid"].chip_total for r in reads] == [15] * 7 + [10]
    # The same reading carried over unchanged (the regional path keeps the last frame's boxes outside its tile)
    # is one look, however many frames repeat it.
    mapper, cam = _mapper("3-card-monster")
    reads = [_wager_gap_payout(mapper, cam, oracle, 0.9, ghost_at="end") for _ in range(6)]
    assert all(r["seat2.ante.paid"].chip_total == 15 for r in reads)


def test_a_chip_the_verifier_saw_counts_as_sure_as_the_verifier_is(oracle):
    # King High, held-out video: a payout chip read at 0.74-0.79 (above the detector's uncertainty, below the
    # tracker's 0.8 for lifting a doubt) for eight frames after a hand half covered it, that the verifier, looking
    # at the full-resolution crop, called a chip (`none` 0.01-0.05): the payout stayed in doubt for nothing.
    mapper, cam = _mapper("king-high")
    payout = ChipStack([100, 100, 100], *mapper.layout.zone("seat5.high").centre)
    _, labels = render(mapper.layout, Scene(chips=[payout]), cam, np.random.default_rng(0), effects=False)

    def least(none: float, uncertain: bool = False) -> float:
        det = oracle(labels)
        det.confidence = np.r_[0.77, np.ones(len(det) - 1)].astype(np.float32)
        det.data["uncertain"] = np.r_[uncertain, np.zeros(len(det) - 1, bool)]
        det.data["chip_none"] = np.r_[none, np.full(len(det) - 1, np.nan)].astype(np.float32)
        return mapper.observe(det)["seat5.high"].chips_min_confidence

    assert least(0.03) == pytest.approx(0.97)
    assert least(np.nan) == pytest.approx(0.77)  # the verifier did not look: the detector's word alone
    assert least(0.5) == pytest.approx(0.77)  # it leans to a chip, less than the detector does
    assert least(0.03, uncertain=True) == pytest.approx(0.77)  # a box in doubt is not vouched for by its `none`


def test_a_stack_seen_in_part_across_a_zones_edge_stays_its_own_zones(oracle):
    # King High, held-out video: a $20 Low under the dealer's hand showed only its bottom chip, its box 4 mm off,
    # in the High Run spot beside it; three frames of it read as a $5 High Run wager no one made.
    mapper, cam = _mapper("king-high")
    low = mapper.layout.zone("seat2.low")
    stack = ChipStack([5, 5, 5, 5], *low.centre)
    _, labels = render(mapper.layout, Scene(chips=[stack]), cam, np.random.default_rng(0), effects=False)
    whole = oracle(labels)
    chips = np.flatnonzero(whole.data["chip_value"] > 0)
    off = apply_homography(cam.H, np.array([chip_positions(stack)[0]]) - 4.0 * mapper.spread.axes[0])[0]
    part = whole[np.arange(len(whole)) == chips[0]]  # the bottom chip alone, its box 4 mm down the spread
    part.xyxy = part.xyxy + np.tile(off - (part.xyxy[0, :2] + part.xyxy[0, 2:]) / 2, 2).astype(np.float32)
    assert _mapper("king-high")[0].observe(part).keys() == {"seat2.high_run"}  # seen alone, nothing before it
    assert mapper.observe(whole)[low.name].chip_total == 20
    seen = mapper.observe(part)
    assert seen.keys() == {low.name} and seen[low.name].chip_total == 5
    # a stack placed where no other zone's chips lay lately is its own spot's
    suit = mapper.layout.zone("seat2.suit_d")
    assert mapper.observe(_detections_of(mapper, cam, ChipStack([5], *suit.centre), oracle, {})).keys() == {suit.name}


def test_a_stack_says_whether_a_chip_of_it_missed_could_lie_over_a_cards_edge(oracle):
    # The detector misses chips over a card's edge: a payout read short beside the cards is a short pay only
    # where no chip of it could have lain there unseen (its row's next place, one step along, on no card's box).
    mapper, cam = _mapper("pick-2-poker")
    x, y = mapper.layout.zone("seat2.ante").centre
    u, _ = mapper.spread.axes
    before = np.array([x, y]) - mapper.spread.step_mm * u  # the place before a one-chip row's chip

    def room(past_edge: float | None) -> bool:
        """A $5 chip at the Ante's centre, a card to its left whose right edge lies `past_edge` mm left of the
        place before the chip (None: no card)."""
        cards = [PlacedCard("7h", before[0] - past_edge - 63.5 / 2, y)] if past_edge is not None else []
        _, labels = render(mapper.layout, Scene(cards=cards, chips=[ChipStack([5], x, y)]), cam,
                           np.random.default_rng(0), effects=False)
        obs = mapper.observe(oracle(labels))["seat2.ante"]
        assert obs.chips == [5]  # the chip is seen: what is asked is where an unseen one could be
        return obs.chips_card_edge_room

    assert room(5.0)  # a chip there would lie 14 mm over the card's edge
    assert not room(25.0)  # a chip there would lie clear of the card: the detector would have seen it
    assert not room(None)


def test_a_stack_says_whether_a_chip_of_it_missed_could_lie_under_another_stacks_chip(oracle):
    # A King High $2 High laid against a $20 Seven: its bottom $1, between the Seven's top chip and its own top one,
    # showed in no frame. A stack read short where another stack's chip covers its row's next place may hold a chip
    # unseen; with that place clear, the detector would have seen one there.
    mapper, cam = _mapper("king-high")
    high = np.array(mapper.layout.zone("seat1.high").centre)
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm

    def room(gap: float | None) -> bool:
        """A $1 chip at the High's centre and a 4 x $5 stack before it along the spread, its top chip `gap` chip
        widths from the place before the $1 (None: no other stack)."""
        chips = [ChipStack([1], *high)]
        if gap is not None:
            top = high - step * u - gap * 39.0 * u
            chips.append(ChipStack([5, 5, 5, 5], *(top - 1.5 * step * u)))
        _, labels = render(mapper.layout, Scene(chips=chips), cam, np.random.default_rng(0), effects=False)
        obs = mapper.observe(oracle(labels))["seat1.high"]
        assert obs.chips == [1]
        return obs.chips_under_room

    assert room(0.5)  # a chip there would be three quarters covered: unseen in the frames it was missed
    assert not room(0.9)  # the Seven's top chip would cover a tenth of it
    assert not room(None)


def test_a_payout_has_no_room_under_its_own_wager_laid_before_it(oracle):
    # Pick 2, held-out video: a $4 short pay laid against its $5 Ante was sent to review, a chip of it said to lie
    # perhaps under the Ante's chip. What is laid later lies on top: the wager's chip can hide under its payout,
    # never the payout's under the wager.
    mapper, cam = _mapper("pick-2-poker")
    wager, payout = (mapper.layout.zone(z).centre for z in ("seat2.ante", "seat2.ante.paid"))
    scene = Scene(chips=[ChipStack([5], *wager), ChipStack([1, 1, 1, 1], *payout)])  # as the simulator lays them
    _, labels = render(mapper.layout, scene, cam, np.random.default_rng(0), effects=False)
    obs = mapper.observe(oracle(labels))
    assert obs["seat2.ante"].chips == [5] and obs["seat2.ante.paid"].chips == [1, 1, 1, 1]
    assert obs["seat2.ante"].chips_under_room  # the payout's first chip lies half a chip from the Ante's next place
    assert not obs["seat2.ante.paid"].chips_under_room


@pytest.mark.parametrize(("n_wager", "n_payout"), [(4, 4), (3, 4), (4, 3), (2, 5)])
def test_a_wager_and_its_payout_in_one_run_part_where_each_centred_on_its_spot_ends(n_wager, n_payout):
    # King High, held-out video: a $20 Low (four $5) and its $20 payout, each spread centred on its spot 3.2 steps
    # apart, lie in one run on one line, the payout's bottom chip over the wager's top one (one box for the two).
    # Cut where a row fills (five chips), they read $25 and $10.
    mapper, _ = _mapper("king-high")
    step = mapper.spread.step_mm
    wager = chip_positions(ChipStack([5] * n_wager, *mapper.layout.zone("seat6.low").centre))
    payout = chip_positions(ChipStack([5] * n_payout, *mapper.layout.zone("seat6.low.paid").centre))
    shared = np.linalg.norm(np.subtract(wager[-1], payout[0])) < 0.5 * step
    pts = np.array((wager[:-1] if shared else wager) + payout)
    pts += np.random.default_rng(n_wager * 10 + n_payout).normal(0, 1.5, pts.shape)  # the detector's jitter
    got = {st.zone: len(st.members) for st in mapper.group_stacks(pts, np.full(len(pts), 5.0))}
    assert got == {"seat6.low": n_wager - shared, "seat6.low.paid": n_payout}


def test_a_run_the_wager_and_payout_places_do_not_explain_is_cut_as_before():
    # A box past the payout's top (a phantom) leaves the run's end off the payout's places: no cut by spots.
    mapper, _ = _mapper("king-high")
    u, _ = mapper.spread.axes
    step = mapper.spread.step_mm
    wager = chip_positions(ChipStack([5] * 4, *mapper.layout.zone("seat6.low").centre))
    payout = chip_positions(ChipStack([5] * 4, *mapper.layout.zone("seat6.low.paid").centre))
    pts = np.array(wager[:-1] + payout + [tuple(np.add(payout[-1], 0.5 * step * u))])
    assert sorted(len(st.members) for st in mapper.group_stacks(pts, np.full(len(pts), 5.0))) == [3, 5]


def test_a_box_on_no_place_of_two_neighbouring_spots_stacks_is_no_chip():
    # 3 Card Monster, held-out video (set F, seed 10633, frame 300): a $10 Ante (two $5) beside the $400 Monster
    # (four $100), and an unsure $100 box between them, along and across: read as the Ante's bottom chip, the Ante
    # read $110 in most frames. The boxes' centres as read, mm along and across the spread from the Ante's centre.
    mapper, _ = _mapper("3-card-monster")
    u, v = mapper.spread.axes
    seen = [(-88, -14), (-70, -14), (-55, -14), (-40, -11), (-19, -4), (-6, 0), (9, 0)]
    pts = np.array([np.add(mapper.layout.zone("seat6.ante").centre, a * u + b * v) for a, b in seen])
    unsure = np.zeros(len(pts), bool)
    unsure[4] = True
    assert mapper._ghosts_between_spots(pts, unsure) == {4}
    # Read surely, a box between the two stacks is the detector's box over the gap between them all the same; one
    # past a run's end may be a chip the stacks do not account for (a past-post), and stays.
    assert mapper._ghosts_between_spots(pts, np.zeros(len(pts), bool)) == {4}
    past_end = np.vstack([np.delete(pts, 4, axis=0), pts[-1] + 0.6 * mapper.spread.step_mm * u])
    assert mapper._ghosts_between_spots(past_end, np.zeros(len(past_end), bool)) == set()
    unsure = np.zeros(len(pts) - 1, bool)
    unsure[5] = True  # without the ghost, the Ante's own top chip read unsure: on its place, a chip
    assert mapper._ghosts_between_spots(np.delete(pts, 4, axis=0), unsure) == set()


def test_a_box_between_two_neighbouring_payouts_on_no_place_of_either_is_no_chip():
    # 3 Card Monster, held-out video (set K, seed 10853): a $75 Ante payout and the $75 Play payout beside it (three
    # $25 each, 15 mm apart across), and a box read at 0.61 between them: the Ante's payout read $100, an overpay,
    # with no doubt. The boxes' centres as read, in steps along and mm across the spread from the Ante payout's spot.
    mapper, _ = _mapper("3-card-monster")
    u, v = mapper.spread.axes
    step = mapper.spread.step_mm
    seen = [(-0.96, 1.6), (0.05, 1.3), (1.03, 2.0), (1.75, 5.4), (3.14, 14.7), (4.19, 15.5), (5.11, 15.7)]
    pts = np.array([np.add(mapper.layout.zone("seat6.ante.paid").centre, a * step * u + b * v) for a, b in seen])
    assert mapper._ghosts_between_spots(pts, np.zeros(len(pts), bool)) == {3}
    assert mapper._ghosts_between_spots(np.delete(pts, 3, axis=0), np.zeros(len(pts) - 1, bool)) == set()


def test_a_lone_chip_centred_on_its_own_spot_past_a_neighbours_row_is_no_guess():
    # King High, held-out video (set G, seed 10681): a $40 Pokerpot (25, 5, 5, 5) and a $5 Seven, each centred on
    # its spot, the Seven's chip 1.6 steps past the Pokerpot's top: both spots were read with doubt as if the chip
    # could be the Pokerpot's, though the two stacks, centred on their spots, account for every chip.
    mapper, _ = _mapper("king-high")
    pokerpot = chip_positions(ChipStack([25, 5, 5, 5], *mapper.layout.zone("seat1.pokerpot").centre))
    seven = chip_positions(ChipStack([5], *mapper.layout.zone("seat1.seven").centre))
    pts, values = np.array(pokerpot + seven), np.array([25, 5, 5, 5, 5])
    stacks = mapper.group_stacks(pts, values)
    assert sorted((st.zone, len(st.members)) for st in stacks) == [("seat1.pokerpot", 4), ("seat1.seven", 1)]
    assert mapper._adrift(stacks, pts, values, skip=set()) == set()
    # The lone chip 3 mm off the Seven's centre, towards the row: off its place, which spot
    # holds it is a guess again.
    slid = pts.copy()
    slid[4] = pts[4] - 3.0 * mapper.spread.axes[0]
    stacks = mapper.group_stacks(slid, values)
    assert mapper._adrift(stacks, slid, values, skip=set()) == {"seat1.pokerpot", "seat1.seven"}


def test_a_payout_row_lying_half_a_step_off_its_spot_may_have_lost_its_end_chip(oracle):
    # 3 Card Monster, held-out video (set J, seed 10813): a $300 Ante payout read $200 for good, a short pay with no
    # doubt. Its bottom chip, beside the wager's top one, went unseen; the two read lay 0.6 of a step past the spot.
    mapper, cam = _mapper("3-card-monster")
    spot = np.array(mapper.layout.zone("seat3.ante.paid").centre)

    def read(chips: list[int], missed: int | None = None):
        """The payout `chips` laid as the simulator lays it, the detector missing chip `missed` (bottom first)."""
        stack = ChipStack(chips, *spot)
        _, labels = render(mapper.layout, Scene(chips=[stack]), cam, np.random.default_rng(0), effects=False)
        det = oracle(labels)
        if missed is not None:
            at = apply_homography(cam.H, np.array([chip_positions(stack)[missed]]))[0]
            centres = (det.xyxy[:, :2] + det.xyxy[:, 2:]) / 2
            det = det[np.arange(len(det)) != np.linalg.norm(centres - at, axis=1).argmin()]
        return mapper.observe(det)["seat3.ante.paid"]

    assert not read([100, 100, 100]).chips_off_centre_room
    short = read([100, 100, 100], missed=0)
    assert short.chips == [100, 100] and short.chips_off_centre_room and short.chips_hidden_room
    assert read([100, 100, 100], missed=2).chips_off_centre_room  # the top chip missed: off the other way
    assert not read([100, 100]).chips_off_centre_room  # a true short pay, laid centred on the spot
    assert not read([100, 100], missed=0).chips_off_centre_room  # one chip says nothing of where its row lies


@pytest.mark.parametrize(("steps", "none", "read"), [(0.65, 0.4, 100), (0.65, 0.05, 200), (0.65, np.nan, 200),
                                                     (1.0, 0.4, 200)])
def test_a_second_box_half_a_step_off_a_chip_that_the_verifier_leans_none_on_is_no_chip(oracle, steps, none, read):
    # Pick 2, held-out video (set Y, 11354): a one-chip $100 Play drew a second $100 box two thirds of a step along
    # the spread at 0.73-0.78 (above the detector's uncertainty) in most frames, the verifier leaning `none` on it at
    # 0.17-0.88: the Play read $200 by turns with $100. Two chips of one stack lie a step apart.
    mapper, det = _chip_and_second_box("pick-2-poker", "seat3.play", 100, oracle, steps, 0.75, none)
    assert mapper.observe(det)["seat3.play"].chip_total == read


def _chip_and_second_box(game: str, zone: str, value: int, oracle, steps: float, conf: float, none: float):
    """A one-chip stack on `zone`'s centre, and a second box of its denomination `steps` along the spread from it,
    read at `conf` (above the detector's uncertainty) with the verifier's `none` on it: (the mapper, detections)."""
    mapper, cam = _mapper(game)
    chip = ChipStack([value], *mapper.layout.zone(zone).centre)
    det = _detections_of(mapper, cam, chip, oracle, {}, extra_mm=tuple(
        np.asarray([chip.x, chip.y]) + steps * mapper.spread.step_mm * mapper.spread.axes[0]), extra_value=value)
    det.confidence[-1], det.data["uncertain"][-1] = conf, False
    det.data["chip_none"] = np.r_[np.full(len(det) - 1, np.nan), none].astype(np.float32)
    return mapper, det


def test_a_wager_and_its_payout_of_one_denomination_part_though_an_end_box_lies_off_its_place():
    # 3 Card Monster, held-out video (set Y, seed 11353, frame 587): a $400 Ante and its $400 payout, four $100 each in
    # one line, the Ante's bottom box 0.16 of a step in from its place: cut where a row fills, they read $500 and $300
    # in most frames. The boxes' centres as read, in steps along and mm across the spread from the Ante's centre.
    mapper, _ = _mapper("3-card-monster")
    u, v = mapper.spread.axes
    seen = [(-1.34, 0.1), (-0.39, 0.2), (0.36, -0.6), (1.47, -2.9), (2.46, -3.6), (3.5, -6.0), (4.55, -5.6),
            (5.53, -5.8)]
    ante = np.asarray(mapper.layout.zone("seat2.ante").centre)
    pts = np.array([ante + a * mapper.spread.step_mm * u + b * v for a, b in seen])
    got = {st.zone: len(st.members) for st in mapper.group_stacks(pts, np.full(len(pts), 100.0))}
    assert got == {"seat2.ante": 4, "seat2.ante.paid": 4}


@pytest.mark.parametrize(("steps", "read", "doubted"), [(-0.7, 2, True), (0.7, 1, False), (-1.0, 2, True)])
def test_a_box_under_a_step_from_a_more_confident_one_of_its_denomination_is_unsure(oracle, steps, read, doubted):
    # King High, held-out video (set AA, seed 11401, frame 193): a one-chip $1 Seven (0.95) drew a second $1 box 0.7 of
    # a step behind it at 0.54-0.75, the verifier leaning `none` on it at 0.25-0.92: read surely as $2 in most frames,
    # the round said $2 was wagered. Chips of one stack lie a step apart: such a box is a doubt; past the chip, with the
    # verifier leaning `none` on it, it is the detector's second box on it, no chip (`_duplicates`). A full step
    # behind, where a chip of the row would lie, the row of two lies half a step off the spot, its end box seen at
    # 0.65: in doubt too (`_off_centre_wagers`).
    mapper, det = _chip_and_second_box("king-high", "seat2.seven", 1, oracle, steps, 0.62, 0.35)
    obs = mapper.observe(det)["seat2.seven"]
    assert (obs.chip_total, obs.chips_uncertain) == (read, doubted)
    assert not det.data["uncertain"][-1]  # the detections themselves are left as the detector gave them


def test_a_box_the_verifier_doubts_that_centres_a_payout_on_its_spot_is_its_end_chip():
    # Pick 2, held-out video (set CC, seed 11464, frame 392): a $400 Bonus 5 and its $400 payout, four $100 each in
    # one line, the payout's bottom box at 0.64 (the verifier leaning `none` at 0.6) 0.8 of a step past the wager's
    # top one and a little off both lines: taken for a second box on that chip, or one over the gap, the payout read
    # $300 in most frames, its three chips off its spot's centre. The boxes as read: steps along and mm across the
    # spread from the wager's centre, confidence, the verifier's `none` (NaN: not looked at).
    mapper, _ = _mapper("pick-2-poker")
    u, v = mapper.spread.axes
    seen = [(-1.55, 0.8, 0.92, np.nan), (-0.42, -1.2, 1.0, 0.0), (0.49, -0.9, 1.0, 0.0), (1.47, -1.9, 0.82, 0.17),
            (2.26, -4.7, 0.64, 0.6), (3.18, -5.9, 1.0, 0.0), (4.19, -6.1, 1.0, 0.0), (5.19, -6.6, 1.0, 0.0)]
    wager = np.asarray(mapper.layout.zone("seat2.bonus5").centre)
    mm = np.array([wager + a * mapper.spread.step_mm * u + b * v for a, b, _, _ in seen])
    px = mapper.to_image(mm)
    n = len(seen)
    det = sv.Detections(xyxy=np.hstack([px - 10.0, px + 10.0]).astype(np.float32),
                        confidence=np.array([s[2] for s in seen], np.float32),
                        data={"class_name": np.full(n, "chip_100", object), "card": np.full(n, "", object),
                              "chip_value": np.full(n, 100, np.int32), "uncertain": np.zeros(n, bool),
                              "chip_none": np.array([s[3] for s in seen], np.float32)})
    obs = mapper.observe(det)
    assert (obs["seat2.bonus5"].chip_total, obs["seat2.bonus5.paid"].chip_total) == (400, 400)


def _row_with_bottom_box(mapper: ZoneMapper, zone: str, bottom_steps: float, none: float) -> sv.Detections:
    """Two confident $1 boxes a step apart centred on `zone`'s spot along its spread, and an unsure $25 box
    `bottom_steps` below the first, the verifier leaning `none` on it at `none`."""
    u, _ = mapper.spread.axes
    centre = np.asarray(mapper.layout.zone(zone).centre)
    mm = np.array([centre + (a - 0.5) * mapper.spread.step_mm * u for a in (-bottom_steps, 0.0, 1.0)])
    px = mapper.to_image(mm)
    return sv.Detections(xyxy=np.hstack([px - 10.0, px + 10.0]).astype(np.float32),
                         confidence=np.array([0.74, 0.96, 0.96], np.float32),
                         data={"class_name": np.array(["chip_25", "chip_1", "chip_1"], object),
                               "card": np.full(3, "", object), "chip_value": np.array([25, 1, 1], np.int32),
                               "uncertain": np.array([True, False, False]),
                               "chip_none": np.array([none, np.nan, np.nan], np.float32)})


def test_an_unsure_box_half_a_step_below_a_row_that_the_verifier_leans_none_on_is_no_chip():
    # King High, video (set 11681, frame 160): a $2 Low read $27 with doubt in most frames, a $25 box at 0.3-0.83
    # 0.63 of a step below its bottom $1, the verifier leaning `none` on it at 0.69-0.94.
    mapper, _ = _mapper("king-high")
    obs = mapper.observe(_row_with_bottom_box(mapper, "seat4.low", 0.63, 0.93))["seat4.low"]
    assert obs.chip_total == 2 and not obs.chips_uncertain
    # a step below, where a chip of the row would lie: a chip, in doubt (real ones there draw `none` up to 0.97)
    obs = mapper.observe(_row_with_bottom_box(mapper, "seat4.low", 1.0, 0.93))["seat4.low"]
    assert obs.chip_total == 27 and obs.chips_uncertain
    # so near, but the verifier unsure of it: in doubt
    obs = mapper.observe(_row_with_bottom_box(mapper, "seat4.low", 0.63, 0.6))["seat4.low"]
    assert obs.chip_total == 27 and obs.chips_uncertain


def _with_second_box(mapper: ZoneMapper, cam: Camera, stack: ChipStack, oracle, on: int, steps: float, value: int):
    """A perfect detector's boxes for `stack`, plus a sure box of `value` `steps` along the spread from chip `on`:
    the detector's second box on one chip."""
    det = _detections_of(mapper, cam, stack, oracle, {})
    chips = np.flatnonzero(det.data["chip_value"] > 0)
    at = mapper.to_table(((det.xyxy[chips[on], :2] + det.xyxy[chips[on], 2:]) / 2)[None])[0]
    det = _detections_of(mapper, cam, stack, oracle, {}, extra_mm=tuple(at + steps * mapper.spread.step_mm
                                                                        * mapper.spread.axes[0]), extra_value=value)
    det.confidence[-1], det.data["uncertain"][-1] = 0.95, False
    return det


def test_a_row_of_one_denomination_a_box_too_many_for_its_length_reads_one_chip_fewer_with_doubt(oracle):
    # 3 Card Monster, video (set SS, seed 12013 and others): rows of one denomination 0.65-1.5 steps shorter than
    # their count spans held one box too many in 57 box-frames of 59 over thirteen held-out sets.
    mapper, cam = _mapper("3-card-monster")
    z = mapper.layout.zone("seat6.monster.paid")
    three = ChipStack([100] * 3, *z.centre)
    seen = mapper.observe(_with_second_box(mapper, cam, three, oracle, on=1, steps=0.2, value=100))[z.name]
    assert seen.chip_total == 300 and seen.chips_uncertain
    # a box of another denomination: which box is the second is a guess, so all are read, with doubt
    mixed = mapper.observe(_with_second_box(mapper, cam, three, oracle, on=1, steps=0.2, value=25))[z.name]
    assert mixed.chip_total == 325 and mixed.chips_uncertain
    # a box a whole step on: a row as long as its count, a fourth chip read surely
    four = mapper.observe(_with_second_box(mapper, cam, three, oracle, on=2, steps=1.0, value=100))[z.name]
    assert four.chip_total == 400 and not four.chips_uncertain


# King High, video (A47 14191 cb66b4f8): a $200 Pokerpot drew three sure $100 boxes over 1.5 steps (two chips span
# one) in the three frames a High was laid beside it; read $300 surely, the round was left in doubt. A box 0.65 of a
# step past makes a row 0.35 short, as right rows often are: read as a third chip.
@pytest.mark.parametrize(("steps", "total", "in_doubt"), [(0.5, 200, True), (0.65, 300, False)])
def test_a_sure_box_half_a_step_past_a_two_chip_row_is_a_second_box_not_a_third_chip(oracle, steps, total, in_doubt):
    mapper, cam = _mapper("king-high")
    spot = mapper.layout.zone("seat3.pokerpot")
    det = _with_second_box(mapper, cam, ChipStack([100] * 2, *spot.centre), oracle, on=1, steps=steps, value=100)
    seen = mapper.observe(det)[spot.name]
    assert (seen.chip_total, seen.chips_uncertain) == (total, in_doubt)


@pytest.mark.parametrize("end", [0, -1])
def test_a_wager_row_a_chip_short_off_its_spot_is_marked_for_the_tracker(oracle, end):
    # King High, held-out video (set A58, seed 14631): a $400 Suit of four $100, its bottom chip never detected, read
    # $300 surely, the three read 0.54 of a step off the spot's centre. Not a doubt in the frame (a wager read so for
    # good is rare); the tracker weighs it over the frames that confirm the total.
    mapper, cam = _mapper("king-high")
    z = mapper.layout.zone("seat3.suit_h")
    det = _detections_of(mapper, cam, ChipStack([100] * 4, *z.centre), oracle, {})
    keep = np.ones(len(det), bool)
    keep[np.flatnonzero(det.data["chip_value"] > 0)[end]] = False
    short = mapper.observe(det[keep])[z.name]
    assert short.chip_total == 300 and short.chips_short_row and not short.chips_uncertain
    whole = mapper.observe(det)[z.name]
    assert whole.chip_total == 400 and not whole.chips_short_row
    # a row of three laid centred on its spot lies as a whole one
    centred = mapper.observe(_detections_of(mapper, cam, ChipStack([100] * 3, *z.centre), oracle, {}))[z.name]
    assert centred.chip_total == 300 and not centred.chips_short_row


def test_a_payout_has_no_room_under_any_wager_all_laid_before_it(oracle):
    # Pick 2, held-out video A69 15054 f8ec4b23: a true $4 Play short pay, laid centred on its spot, was sent to
    # review as a chip of it could lie under the Ante's $5 chip, 22 mm from its row's next place. Every wager is laid
    # before any payout, so a payout's chip lies on top of a wager's, never under it.
    mapper, cam = _mapper("pick-2-poker")
    ante, play, paid = (mapper.layout.zone(z).centre for z in ("seat2.ante", "seat2.play", "seat2.play.paid"))
    scene = Scene(chips=[ChipStack([5], *ante), ChipStack([5], *play), ChipStack([1, 1, 1, 1], *paid)])
    _, labels = render(mapper.layout, scene, cam, np.random.default_rng(0), effects=False)
    obs = mapper.observe(oracle(labels))
    assert obs["seat2.play.paid"].chips == [1, 1, 1, 1]
    assert not obs["seat2.play.paid"].chips_under_room
    assert obs["seat2.ante"].chips_under_room  # a wager's chip can still lie under a payout laid on top of it
