"""Test helpers shipped with the package: the conformance suite every game runs."""
