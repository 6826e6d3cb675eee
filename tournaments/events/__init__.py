"""Running an event: setting it up (setup), its rounds and boards (rounds, dealing), the
states of a round (round_states), stages and the cut (stages), the clock (clock), officials
(officials), substitutions (substitutions), players from a CSV file (players_csv), the
organizer's overview (overview), what the room sees of a round on the big screen (room) and
the read side of the event (selectors).

Vocabulary: an *entry* is a player's place in an event (tournaments.models.Entry); a
*qualifier* is a player who passes a stage's cut.
"""
