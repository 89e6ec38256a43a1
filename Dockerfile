# The image of the API and the bot workers (docker-compose.yml runs both from it), installed
# from the same lock as the two commands (uv.lock, through the uv that requirements/uv.txt pins).
FROM python:3.11-slim
WORKDIR /app
COPY requirements/uv.txt requirements/uv.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/uv.txt
COPY pyproject.toml uv.lock README.md ./
COPY engine engine
COPY ai ai
COPY core core
COPY service service
COPY worker worker
COPY cli cli
COPY client client
COPY tools tools
COPY gunicorn.conf.py ./
ENV UV_PROJECT_ENVIRONMENT=/usr/local UV_COMPILE_BYTECODE=1
# --inexact: the image's own pip and uv stay beside what the lock installs.
RUN uv sync --locked --inexact --no-editable --no-cache
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service.wsgi:app"]
