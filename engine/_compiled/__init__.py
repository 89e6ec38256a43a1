"""Where the build puts the compiled copies of the engine's shared hot modules (setup.py);
chosen or not by ``engine.implementation``. Empty where nothing was compiled.
"""
