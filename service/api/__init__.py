"""The HTTP resources, one flask-smorest Blueprint each, with their schemas beside them."""
