"""The stored standings of an event and of each stage, always equal to a full recompute.

- *results*: the seat results of an event read from its counted games (event_results) and
  the standings computed from them (compute).
- *cache*: the seat results and points each process keeps between recomputes.
- *running*: each player's running sums, moved by the boards that changed (running_sums).
- *store*: the recompute that writes the rows under the writers' lock (standings_recompute).
- *requests*: asking for a recompute after commit, once a burst (standings_request).
- *rulings*: adjustments and penalties, the referees' rulings that move standings.
- *teams*: team standings, from the same stored individual results.
"""
