"""Where the build puts the compiled copies of ai.poch's hot modules (setup.py); chosen or
not by ``engine.implementation``. Empty where nothing was compiled.
"""
