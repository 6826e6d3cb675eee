"""Clubs and series across events: clubs and their members (clubs), series standings,
pure (series), player profiles (profiles) and the league's CSV exports (exports).
"""
