"""The `pocha` command line: one click group, with subcommands added per feature.

Subcommands import their packages lazily, so `pocha --help` works even when a
package (or one of its optional dependencies) is missing or half-written.
"""
