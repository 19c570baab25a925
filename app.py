"""`python app.py` launches the DocPilot web app (same as `docpilot serve`)."""

from docpilot.ui import launch

if __name__ == "__main__":
    launch()
