"""What every part of an event asks, below the event's own services.

- *access*: who may do what in an event (organizer, chief referee, referee, player; Actor).
- *audit*: the audit log, one AuditEntry per change.
- *embargo*: which boards are open to whom while a round is in play.
- *labels*: translated names of the models' choices.
- *lineups*: who sits where at a table, substitutions applied.
- *rules*: the event's rules (rules_of) and what a round's state allows (round_refusal).
- *rating_requests*: asking for the rating to be recomputed (after commit, once a burst).
"""
