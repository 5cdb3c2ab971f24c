import pytest

from pipelines.games.cards import DECK, CardError, card_index, parse_card
from pipelines.games.shoe import Shoe, ShoeExhausted


def test_deck_has_52_distinct_cards_and_class_ids():
    assert len(set(DECK)) == 52
    assert sorted(card_index(c) for c in DECK) == list(range(52))


@pytest.mark.parametrize("text,expected", [("10h", "Th"), ("AH", "Ah"), ("q♠", "Qs"), (" 2c ", "2c")])
def test_parse_card_normalises(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["1h", "Ax", "", "Ahh"])
def test_parse_card_rejects(bad):
    with pytest.raises(CardError):
        parse_card(bad)


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_shoe_draws_without_replacement(decks):
    shoe = Shoe(decks=decks, seed=3)
    drawn = shoe.draw(52 * decks)
    assert sorted(drawn) == sorted(list(DECK) * decks)
    with pytest.raises(ShoeExhausted):
        shoe.draw()


def test_shoe_is_deterministic_for_a_seed_and_tracks_cut_card_and_burns():
    a, b = Shoe(decks=6, seed=7), Shoe(decks=6, seed=7)
    assert a.draw(10) == b.draw(10)
    burned = a.burn(2)
    assert a.burned == burned and a.remaining == 312 - 12
    assert not a.cut_card_reached
    a.draw(int(312 * 0.75) - 12)
    assert a.cut_card_reached


def test_shoe_rejects_unsupported_deck_count():
    with pytest.raises(ValueError, match="decks"):
        Shoe(decks=3)
