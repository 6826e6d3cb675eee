"""The demo: its accounts (accounts) and its league of clubs and series (league)."""
