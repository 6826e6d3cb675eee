"""Whole events in and out of the site: an event's JSON archive and its restore
(event_archive), and the import of recorded games as boards and games (records).
"""
