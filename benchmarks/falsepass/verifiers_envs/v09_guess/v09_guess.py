"""Honest multi-turn: guess a number, told higher or lower."""
import verifiers as vf
from datasets import Dataset


class GuessEnv(vf.MultiTurnEnv):
    """Guess a number from 1 to 64, told higher or lower after each guess."""

    async def env_response(self, messages, state, **kwargs):
        guess = (self.parser.parse_answer(messages) or "").strip()
        target = int(state["answer"])
        if not guess.lstrip("-").isdigit():
            return [vf.UserMessage(content="Send a whole number in \\boxed{}.")]
        if int(guess) == target:
            state["won"] = True
            state["final_env_response"] = [vf.UserMessage(content="Correct!")]
            return state["final_env_response"]
        return [vf.UserMessage(content="Higher." if int(guess) < target else "Lower.")]


def load_environment(**kwargs):
    rows = [{"question": "I picked a number from 1 to 64. Guess it, one \\boxed{} guess per turn.",
             "answer": str((37 * i + 11) % 64 + 1)} for i in range(40)]
    parser = vf.Parser(extract_fn=vf.extract_boxed_answer)

    def won(state, **kwargs) -> float:
        return 1.0 if state.get("won") else 0.0

    return GuessEnv(dataset=Dataset.from_list(rows), parser=parser, max_turns=8,
                    rubric=vf.Rubric(funcs=[won], weights=[1.0], parser=parser))
