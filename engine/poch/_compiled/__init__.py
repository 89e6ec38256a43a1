"""Where the build puts the compiled copies of engine.poch's hot modules (setup.py); chosen or
not by ``engine.implementation``. Empty where nothing was compiled.
"""
