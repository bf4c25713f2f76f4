"""Game records: read, write, canonical form, digest and verification (docs/record-format.md)."""
