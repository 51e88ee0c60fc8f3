FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/playbychat.sqlite3 HEALTH_FILE=/tmp/playbychat-health
WORKDIR /app

# Dependencies first, at the pinned versions: this layer is rebuilt only when they change, not on every
# change of the sources.
COPY constraints.txt ./
RUN pip install --no-cache-dir -r constraints.txt

COPY pyproject.toml README.md ./
COPY bot bot
COPY cogs cogs
COPY games games
COPY presentation presentation
COPY rendering rendering
RUN pip install --no-cache-dir --no-deps -c constraints.txt . \
    && useradd --create-home --uid 10001 player \
    && mkdir -p /data && chown player /data
USER player
# The SQLite file lives on a volume so tables survive container upgrades.
VOLUME ["/data"]
# discord.py closes the connection, the clock and the database cleanly on SIGINT (KeyboardInterrupt).
STOPSIGNAL SIGINT
# Healthy while the bot touches HEALTH_FILE, every 30 s when connected to Discord.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["play-by-chat", "health"]
# DISCORD_TOKEN (required), DEV_GUILD_ID, LOG_LEVEL, DISCORD_API_BASE, DISCORD_GATEWAY_URL, and for a scaled-out
# deployment DATABASE_URL (PostgreSQL instead of the SQLite file), SHARD_COUNT and SHARD_IDS come from the
# environment (docs/deploy.md).
CMD ["play-by-chat", "run"]
