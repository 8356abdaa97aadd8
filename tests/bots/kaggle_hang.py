"""A ConnectX agent that never answers."""

import time


def agent(observation, configuration):
    time.sleep(3600)
