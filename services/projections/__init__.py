"""DuckDB projections of the floor's event log: reporting, finance reconciliation, holds."""
