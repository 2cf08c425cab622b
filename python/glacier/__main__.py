"""``python -m glacier``: the ``glacier`` command (``python -m glacier perft kuba 5``)."""

from glacier.cli import main

if __name__ == "__main__":
    main(prog_name="glacier")
