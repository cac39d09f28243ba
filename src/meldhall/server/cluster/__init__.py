"""Many ``meldhall serve`` processes as one site, on one database and one Redis
(docs/operations.md, "Many processes"): leases with fencing tokens (``leases``), messages
between processes (``relay``), the shared lobby (``lobby``), client connections relayed to the
process that owns their table (``connection``), and the process's part of the site that ties
them together and takes over the tables of a dead process (``node``)."""
