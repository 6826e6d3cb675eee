"""A live table's devices, the game side: the legal steps of the seat to act as buttons
(choices: pure, from the engine's move generator) and what one seat may see of the position
(seat). The event side, who may act and how a step is stored, is tournaments.tables.live."""
