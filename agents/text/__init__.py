"""Playing through text: a decision as a prompt and a reply read back (``protocol``), a
language model behind an OpenAI-compatible chat endpoint (``llm``), and a scripted player that
reads only the prompt (``scripted``)."""
