"""A ConnectX agent that crashes: its process ends at its first move."""

import os


def agent(observation, configuration):
    print("kaggle_crash: crashing as asked", flush=True)
    os._exit(3)
