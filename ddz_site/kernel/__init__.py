"""The site's shared kernel: what every app may import, below every model.

- *DomainError* (errors): a refusal a person can read, raised by a service and shown by a door.
- *text* (text): the checks of free text shared by forms, the API and imports.
- *sql* (sql): PostgreSQL helpers (COPY, column casts) with a portable fallback.
- *dispatch* (dispatch): sending a task by name after commit, never failing the request.
- *spreadsheet* (spreadsheet): a cell of a CSV file that a spreadsheet cannot run as a formula.

It imports Django and Celery only, never an app.
"""
