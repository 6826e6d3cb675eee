"""Seating, pure: movements that spread the meetings of players evenly.

- *schedule*: the vocabulary (Table, Movement, Schedule) and the checks of a movement.
- *designs*: exact designs (Kirkman, affine planes, round robins).
- *search*: the bounded local search and the greedy rounds for the other sizes and clubs.
- *exact*: the exact search of a small field, which proves how few repeats and club meetings
  any movement can have (and finds a movement that has that few).
- *movements*: movement(), the entry point, and the balance of seats.
- *swiss*: Swiss rounds and team rounds from a ranking.
"""
