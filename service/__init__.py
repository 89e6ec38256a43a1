"""The HTTP service: flask-smorest blueprints, schemas and the Redis-backed store.

Views stay thin and call a small service layer; games, jobs and matches live
in Redis. Together with `worker`, this is the only package that touches Redis.
"""
