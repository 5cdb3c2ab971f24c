"""How long things take on camera, as the round machines weigh them (at the camera's frame rate, `RoundMachine.fps`).

Each figure was measured on held-out simulated video; the comments say where and what it guards against.
"""

PAYOUT_LAG_S = 0.8  # a payout is first seen this long after it was placed (under the dealer's hand)
SAME_TIME_S = 0.45  # settlements closer than this are in no visible order
# A stack grows only with a hand over it (the `CoverLog`) at most this long before: over twelve held-out video sets
# (GG-RR, `benchmarks/payout_growth.py`), 73 payouts grew as the hand left them, all within 0.8 s of it; 5 grew with
# no hand over them for 1.0 s or more, each a box that was no chip. (With `chip_stacks.IRREGULAR_STEPS` since, over
# thirteen sets GG-SS: 76 within 0.8 s, 5 no-chip at 1.3 s or more; the 1.0 s box is now read with doubt and does not
# confirm.)
CHIPS_ADDED_S = 0.9
# A payout's short-lived peak reading held this long with no hand over its spot was no hand read as chips
# (`RoundMachine._hand_over_peak`).
PEAK_UNHANDED_S = 0.5
TRANSIT_S = 0.5  # a stack in a paid spot no longer than this, as the payout lands beside it, was that payout in passing
# A round first seen this soon after frames a live camera lost may have begun among them (the tracker dates a
# change to the first frame it is seen, and confirms it over a few more).
MISSED_GRACE_S = 1.0
# A card area read with doubt as holding a card never read, neither face nor back, back as it was within this long:
# no card was there (`RoundMachine._unread_cards_gone`). A card really dealt stays until the clearing.
UNREAD_GONE_S = 2.0
# A wager's fall after its lock to a total first read this long before: the two were read by turns, no chips were
# seen taken (`_doubt_falls_read_before`); a hand over the stack as it is pinched reads it low just before.
FALL_READ_BEFORE_S = 1.0
# ... and held this long before the stack was settled or went: read low only as the hand came to pay or take it, it
# was under the hand (perfect observations, Pick 2: a $150 Play read $125 by turns, then for good four frames before
# it was taken; King High: a $20 High Run read $15 from nine frames before its payout).
FALL_HELD_S = 2.0
# A stack on a spot no longer than this, less than the one gone from it at most this long before, was that one seen
# in part as a hand left it (`ChipInstance.remnant_of`): a wager taken after bets closed (`_drop_remnants`), a payout
# (`_settle`), or one between two spells under the hand (`ChipZone.merge_gaps`).
REMNANT_S = 1.0
# A stack gone from its spot at least this long before the bets that would lock it closed was no wager: placed and
# taken back, or another stack's chips carried over the spot (`RoundMachine._wagers`). A close is dated by the first
# card seen, a few frames after it was dealt, so one gone just before may be hidden by the deal's cards (a Pick 2
# ante lost from view under the seat's second card, a frame before the first was seen). The two seen in the sixty-
# ninth session's fresh sets went 2.8 s and 3.6 s before.
GONE_BEFORE_CLOSE_S = 1.0
# A stack is taken by a hand: one gone from view with no hand over its spot for this long before was not seen taken
# (`RoundMachine._doubt_gone_unhanded`). Over nine stored video sets and half a tenth (3,580 wagers seen gone while play
# was on; a one-off probe), all but four had the hand over their spot within 0.5 s of going (3,571 in that very frame);
# the four, 1.3-1.9 s after the hand, lay in rounds read wrong: three wagers that were none (a payout's chips read in
# other spots) and a loser the dealer never collected.
UNHANDED_GONE_S = 1.0
# A hand reaching for a stack hides it before the cover meter calls its spot covered (a quarter of it differing): one
# gone from view this long before the hand came over its spot was not gone unhanded (`_doubt_gone_unhanded`).
REACHING_S = 0.2
BESIDE_CARDS_MM = 25.0  # a betting spot this close to its seat's card area has chips on the cards' edge
