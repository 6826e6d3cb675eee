"""The pages, one module per audience: the public (public), organizers (organizer),
officials (officials), referees (referee), private links (links), the table screen (screen),
substitutions (substitutions), the league (league), clubs (clubs) and ratings (ratings).
Their URLs live in tournaments.web.urls, one module per namespace.
"""
