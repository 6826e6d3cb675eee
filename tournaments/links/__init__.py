"""Private links: a table's or a player's device without an account.

- *tokens*: making, finding and revoking links, and the correction window.
- *entry*: live entry through a table link (checked steps, the game submitted).
- *checks*: a player's confirmation or report of a result (ResultCheck).
- *player*: a player's own page of his games.
"""
