"""A game at one table (app label "games"): it knows nothing of the event around it.

- engine/: the pure rules engine (standard library only; RULES.md, RECORDS.md).
- notation, dealing, bot, offline: pure helpers (card notation and a deal's identity, deals
  derived from a committed seed, the demo's players, the offline queue of live entry).
- models: Board (a deal), Game (a record of one table on one board, with the engine's verdict),
  EntryDraft (the steps of a game being entered live); counting: which games count.
- records: what a stored record may hold, and GameRejected; outcome: what a replay stores.
- steps: live entry's step checker (a *step* is one call or play the engine checked);
  messages: its sentences; quick_result: the quick result of a game whose plays were not kept.
- views, forms: the offline entry app's worker and manifest; the quick result's forms.

Nothing here imports tournaments; the event side (tournaments.tables) enters games into events.
"""
