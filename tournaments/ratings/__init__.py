"""The duplicate-aware rating: the rating model itself, pure (model), its simulation for
the figures (sim) and the service that recomputes and stores it (service).
"""
