"""The plumbing of every JSON door of the site (Django REST Framework): one error shape
(errors, serializers), one strict JSON reader (request_json, parsers), token and session
authentication (authentication), the token door (auth), the OpenAPI schema's refusals of
every door (schema) and the API's documentation pages (docs). The doors themselves live in
the apps (tournaments.api, tournaments.web.links).
"""
