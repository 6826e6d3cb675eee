"""The published results, read side: travellers, scorecards, replays, charts (pages) and
their CSV exports (exports).
"""
