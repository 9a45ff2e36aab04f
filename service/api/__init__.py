"""HTTP around the rules: schemas, controllers, problem details."""
