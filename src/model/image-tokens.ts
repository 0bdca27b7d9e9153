import { imageDimensions, type ImageDimensions } from './image-dimensions.js';
import type { ImageDetail, ModelImage } from './vision-model.js';

/**
 * OpenAI's tile accounting for image inputs (GPT-4o class, "Calculating costs" in the
 * vision guide): `detail: low` is a flat {@link lowDetailImageTokens}; `detail: high` fits
 * the image in a 2048×2048 square, scales it down so its shortest side is at most 768 px,
 * and charges {@link tokensPerImageTile} per 512-px tile plus {@link lowDetailImageTokens}.
 * Images are only scaled down, never up (the guide's examples all shrink; a 360×800
 * screenshot stays 1×2 tiles).
 */
export const imageTileSize = 512;
/** Tokens per 512-px tile at high detail. */
export const tokensPerImageTile = 170;
/** The flat part of every image: the whole cost at low detail, the base at high detail. */
export const lowDetailImageTokens = 85;
/** The square a high-detail image is first fitted into. */
export const highDetailMaxSide = 2048;
/** The shortest side a high-detail image is scaled down to. */
export const highDetailShortSide = 768;

/**
 * The most a high-detail image can cost (768×2048 after scaling: 2×4 tiles = 1445 tokens):
 * what an image of unknown size is counted as, so the estimate errs high, not low.
 */
export const maxHighDetailImageTokens = lowDetailImageTokens + tokensPerImageTile * Math.ceil(highDetailShortSide / imageTileSize) * Math.ceil(highDetailMaxSide / imageTileSize);

/**
 * Prompt tokens an image of `size` costs at `detail`. `auto` (the provider decides) and
 * an unset detail are counted as `high`: the upper bound of what may be billed. An
 * unknown size at high detail counts as {@link maxHighDetailImageTokens}.
 */
export function imageTokens(size: ImageDimensions | undefined, detail: ImageDetail | undefined): number {
  if (detail === 'low') return lowDetailImageTokens;
  if (size === undefined) return maxHighDetailImageTokens;
  const { width, height } = highDetailSize(size);
  return lowDetailImageTokens + tokensPerImageTile * Math.ceil(width / imageTileSize) * Math.ceil(height / imageTileSize);
}

/** The size a high-detail image is scaled to before tiling (whole pixels, rounded down). */
export function highDetailSize(size: ImageDimensions): ImageDimensions {
  let { width, height } = size;
  const longest = Math.max(width, height);
  if (longest > highDetailMaxSide) {
    width = Math.floor((width * highDetailMaxSide) / longest);
    height = Math.floor((height * highDetailMaxSide) / longest);
  }
  const shortest = Math.min(width, height);
  if (shortest > highDetailShortSide) {
    width = Math.floor((width * highDetailShortSide) / shortest);
    height = Math.floor((height * highDetailShortSide) / shortest);
  }
  return { width, height };
}

/** Prompt tokens one image sent to a vision model costs: its real size (read from its header) at its requested detail. */
export function estimateImageTokens(image: ModelImage): number {
  return imageTokens(imageDimensions(image.png), image.detail);
}
