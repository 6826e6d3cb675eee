"""The event's life around the games: accounts tied to players (accounts), registration with
its limit, deadline, waiting list and categories (registration), check-in, late entries and
withdrawals per round (checkin), and the event's dates, place and status (life)."""
