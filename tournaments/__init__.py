"""The event around the games (app label "tournaments"), one package per concept.

models/ (every model), core/ (access, audit, embargo, the event's rules), scoring/ and
seating/ (pure), standings/, ratings/, tables/ (a game entering the event), events/ (running
an event), links/ (private links), results/, league/, archive/, demo/, and the doors web/,
api/, admin/, tasks.py, management/. docs/DESIGN.md, "Layers", says what each may import.
"""
