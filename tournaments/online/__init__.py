"""Online robot duplicate: an online event's boards played on the site, each entrant against
robots (issue 22); and its second form, *online tables*, where the entrants play together.

Vocabulary:

- *online event*: an event with ``online`` and ``online_robots`` (tournaments.models.Event); its
  *window* is ``starts_at`` .. ``ends_at`` (shown in the event's zone, tournaments.core.zones).
  Boards are dealt from the committed seed as for any event, one *round per board* (round n
  holds board n: `online_boards_deal`), every round in play from the deal on.
- *entrant*: the account of a player entered in the event (Player.user, Entry; registration
  as for any event, tournaments.people.registration). One entry per account (Player.user is
  one to one), one play of each board per entrant.
- *board seat*: the seat the event fixes for board n, ``seats[(n - 1) % len(seats)]`` in the
  rules' seat order (R-SEAT: S E W), so that everyone plays each seat about as often, and every
  entrant holds the same cards on a board: he is compared with every entrant (DESIGN.md,
  "Scoring methods": by the hand held).
- *play*: an entrant's play of board n is one Table of round n, made when he starts the board
  (`online_board_start`), with him at the board seat and the event's *robot players* at the
  others (Player.robot, entered unranked: tournaments.core.lineups.unranked_ids).
- *robot*: games.robots.Robot of the event's strength, seeded from the event's deal seed, the
  board number and the seat (never the entrant): the same position gives the same robot play
  for every entrant. Robots step through the live table's one write path
  (tournaments.tables.live.live_step), so the finishing step stores the game through
  game_submit once, and the workers verify it.
- *timeout*: the entrant's move not made within ``move_seconds`` of his turn (the table's
  draft saved last) is played by the robot of his seat; ``Table.robot_moves`` counts such
  moves, and the window's close finishes every board still in play the same way.
- *sealed*: until the window is closed no board's results, traveller or hands are shown
  (tournaments.core.embargo.results_sealed); an entrant sees his own games once played.
- *close* (`online_window_close`): once ``ends_at`` is past, robots finish the boards in play,
  the games are verified, every round closed and published and the seed revealed; then the
  event is no longer sealed. Run by the sweep (tournaments.tasks), idempotent.

- *online tables* (``Event.online_tables``, tournaments.online.tables): the entrants of board n
  are seated three to a table as they arrive (as many as the rules' seats), in the rules' seat
  order, at the round's oldest table still waiting; the board starts once the table is full:
  every seat taken, or ``Event.seat_wait_seconds`` after the table was made, when the robot
  players fill the free seats. A timeout, the entrant's "Leave the table" or the close hands
  his seat to its robot for the rest of the board, marked on his result
  (``Seat.robot_from``). Each entrant is still compared with everyone who held his seat.

Modules: robots (robot players, seeds, robots' steps), play (starting a board, a step and the
robots' answer, timeouts, leaving a table), tables (online tables: seating as they arrive, the
robots' fill, the take-over), window (the window, the settings, dealing), entry (entering),
close (the close, the sweep).
"""
