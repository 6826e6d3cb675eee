"""The games of an event's tables: the use cases where a game meets the event.

games/ knows a game at one table (engine, boards, records, the step checker, the quick
result); entering it into an event needs the event (who may enter, the round's state, the
audit log, the standings it moves), so those use cases live here, on the event side:

- *submission*: the one write path of a game (game_submit), whatever the door.
- *versions*: the version a replacement names, as it is shown to the person replacing it.
- *verification*: replaying pending games in batches and asking for the standings they move.
- *review*: confirmation, the chief referee's rulings, drafts of live entry, step checks.
- *selectors*: the referee's read side (status board, queues of flagged games).
"""
