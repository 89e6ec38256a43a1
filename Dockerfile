# The image of the API and the bot workers (docker-compose.yml runs both from it).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY ai ai
COPY core core
COPY service service
COPY worker worker
COPY cli cli
COPY client client
COPY tools tools
COPY gunicorn.conf.py ./
RUN pip install --no-cache-dir .
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service.wsgi:app"]
