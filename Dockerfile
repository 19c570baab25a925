# DocPilot with the embedded local model. Build: docker build -t docpilot .  Run: docker run -p 7860:7860 docpilot
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    GRADIO_ANALYTICS_ENABLED=False \
    CMAKE_ARGS="-DGGML_NATIVE=OFF"

RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa \
      tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-nld qpdf ghostscript poppler-utils build-essential cmake \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY docpilot ./docpilot
COPY pdftools ./pdftools
COPY sandbox ./sandbox
COPY fewshot ./fewshot
COPY prompts ./prompts
COPY app.py ./

# CPU-only torch first, so sentence-transformers does not pull a CUDA build.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 \
 && pip install ".[local]"

RUN useradd --create-home docpilot
USER docpilot
EXPOSE 7860
CMD ["docpilot", "serve", "--host", "0.0.0.0", "--port", "7860"]
