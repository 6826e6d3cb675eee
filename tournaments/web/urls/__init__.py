"""The URLs of the pages, one module per namespace (public, organizer, officials, referee,
links, deals, league, ratings, clubs), each mounted by ddz_site.urls.
"""
