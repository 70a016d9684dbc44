"""The Model Context Protocol server at ``/mcp``: session search and the session listing as tools for any MCP
client (editors, other agents), on the official SDK's streamable HTTP transport.

Like the HTTP routes, the tools are thin: they validate their arguments, call the same services, and answer
the same bodies.
"""
