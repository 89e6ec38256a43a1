# The image of the API and the bot workers (docker-compose.yml runs both from it), installed
# from the same lock as the two commands (uv.lock, through the uv that requirements/uv.txt pins).
FROM python:3.11-slim
# Built from /src, which then goes: a source tree in the working directory would shadow the
# installed package, and with it the compiled engine (only the installed package has it).
WORKDIR /src
COPY requirements/uv.txt requirements/uv.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/uv.txt
COPY pyproject.toml setup.py uv.lock README.md ./
COPY engine engine
COPY ai ai
COPY core core
COPY service service
COPY worker worker
COPY cli cli
COPY client client
COPY tools tools
ENV UV_PROJECT_ENVIRONMENT=/usr/local UV_COMPILE_BYTECODE=1
# --inexact: the image's own pip and uv stay beside what the lock installs. gcc and the C
# library's headers build the compiled engine (setup.py), then leave the image; the last
# line fails the build if the engine running is not the compiled one.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && uv sync --locked --inexact --no-editable --no-cache \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && cd / && rm -rf /src \
    && POCHA_ENGINE=compiled python -c "import ai.pocha.ismcts, ai.poch.ismcts"
WORKDIR /app
COPY gunicorn.conf.py ./
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service.wsgi:app"]
