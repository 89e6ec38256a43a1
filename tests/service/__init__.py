"""Tests of the HTTP service (service/): real Redis from the session fixture, no mocks."""
