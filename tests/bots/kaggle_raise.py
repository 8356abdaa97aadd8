"""A ConnectX agent that raises, and one that returns no column."""


def agent(observation, configuration):
    if observation.mark == 1:
        return {}["no such key"]
    return "four"
