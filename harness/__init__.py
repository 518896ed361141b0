"""harness: an embeddable, Scheme-scripted hook runtime for LLM agent hosts."""
