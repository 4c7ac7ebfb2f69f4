-- Runs once, when the PostgreSQL container initialises: the schema the sink writes the source database shop into
-- (schema.map shop=shop in quickstart/connectors/*.json). The sink creates the tables from the stream.
CREATE SCHEMA shop AUTHORIZATION cdc;
