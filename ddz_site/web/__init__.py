"""Site-wide request handling: the middleware that refuses hostile requests and answers the
site's error pages (middleware), the health check of the database, broker and workers
(health), and the client's address behind proxies for the sign-in lockout and the passwords
an account may have (security).
"""
