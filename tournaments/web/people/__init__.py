"""The pages of the event's life: accounts and profile claims, registration, check-in and the
organizer's messages (tournaments.people, tournaments.core.mail)."""
