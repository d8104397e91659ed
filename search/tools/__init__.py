"""The generated references: docs/cli.md from the click commands (`clidoc`) and docs/python.md from
the public API (`apidoc`), both written by `legalsearch reference`."""
