"""Russian preferans (Sochi, Leningrad, Rostov): ``../shared/spec/russian.md``."""
