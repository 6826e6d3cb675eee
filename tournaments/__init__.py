"""Players, events, rounds, tables, seating, duplicate scoring and standings."""
