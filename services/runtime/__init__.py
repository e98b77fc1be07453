"""The service runtime every service shares: settings, logs, aggregates, idempotent consumption,
dead letters, status endpoint, graceful shutdown. Written once, used by all services."""
